import type { Channel } from "../bundle/channel.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
import { valuesEqual } from "../value/value-equality.ts";
import type { RuleSelection } from "./evaluation-plan.ts";
import type { PreparedRule } from "./prepared-rule.ts";

/**
 * The selection tests of specification 8 that look at more than names, shared by evaluation
 * (which rules take part) and explanations (why one did not).
 */

/** Its `enforcement` fits the manifest's channel. */
export function enforcedOn(rule: PreparedRule, channel: Channel): boolean {
  return rule.enforcement === "both" || rule.enforcement === channel;
}

/** On a client manifest, the rule's `triggers` contain the request's trigger. */
export function runsOnTrigger(rule: PreparedRule, trigger: JsonValue): boolean {
  return rule.triggers?.has(trigger as string) === true;
}

/** For each place the view names and the rule's target names, the two are equal. */
export function fitsView(rule: PreparedRule, view: JsonObject): boolean {
  for (const [key, place] of rule.places) {
    const wanted = view[key];
    if (wanted !== undefined && wanted !== null && !valuesEqual(wanted, place)) return false;
  }
  return true;
}

/** The rules of a selection that fit a request's view, each kind in its order. */
export function narrowedToView(selection: RuleSelection, view: JsonObject): RuleSelection {
  const fits = (rule: PreparedRule): boolean => fitsView(rule, view);
  return {
    compute: selection.compute.filter(fits),
    state: selection.state.filter(fits),
    validation: selection.validation.filter(fits),
    action: selection.action.filter(fits),
  };
}
