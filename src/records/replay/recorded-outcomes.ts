import { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import type { CustomOperators } from "../../engine/expression/custom-operators.ts";
import { listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";

/** The code of the finding a rule that failed closed leaves (specification 8.2). */
export const EVALUATION_ERROR_CODE = "RULE-EVALUATION-ERROR";

/** What a record says a rule did. */
export type RecordedOutcome = "fired" | "quiet" | "failed";

/** An expression every runtime fails closed on: there is no implicit coercion (specification 4.1). */
const FAILING: JsonValue = { op: "add", args: ["masked", 1] };

/**
 * What a record says a rule did: failed closed (its RULE-EVALUATION-ERROR finding), fired (a
 * finding, an effect, or for an action every command it sends), or nothing. Undefined for an action
 * of a record that was denied: actions never ran, so the record cannot say.
 */
export function recordedOutcome(record: JsonObject, rule: JsonObject): RecordedOutcome | undefined {
  const id = rule.id;
  const findings = listAt(record.findings)
    .map(objectAt)
    .filter((finding) => finding.rule === id);
  if (findings.some((finding) => finding.code === EVALUATION_ERROR_CODE)) return "failed";
  if (rule.kind === "action") {
    if (record.decision !== "allow") return undefined;
    const sent = new Set(listAt(record.commands));
    const names = listAt(rule.commands).map((command) => objectAt(command).name);
    return names.length > 0 && names.every((name) => sent.has(name ?? null)) ? "fired" : "quiet";
  }
  if (findings.length > 0 || listAt(record.effects).some((effect) => objectAt(effect).rule === id)) return "fired";
  return "quiet";
}

/**
 * A rule that does exactly what the record says, whatever the request holds: runs once (no type,
 * field list or `forEach`), fires or fails closed as recorded. What it fires with is not compared
 * (the record keeps rule and code, field and rule, command names); only whether it blocks, which
 * depends on the rule and the request's resolutions, both as they were.
 */
function recordedRule(rule: JsonObject, outcome: RecordedOutcome): JsonObject {
  const { when: _when, assert: _assert, forEach: _forEach, ...kept } = rule;
  const target = { ...objectAt(rule.target) };
  delete target.type;
  delete target.field;
  delete target.fields;
  const failing = outcome === "failed" ? FAILING : false;
  switch (rule.kind) {
    case "validation":
      return {
        ...kept,
        target,
        when: outcome !== "quiet",
        assert: failing,
        finding: { ...objectAt(rule.finding), args: {} },
      };
    // A compute or state rule that fired: its effects are taken from the record, so it only fails or not.
    case "compute":
      return { ...kept, target, when: failing, assign: [] };
    case "state":
      return { ...kept, target, when: failing, effects: [] };
    default:
      return {
        ...kept,
        target,
        when: failing || outcome === "fired",
        commands: listAt(rule.commands).map((command) => ({ ...objectAt(command), idempotencyKey: [], payload: {} })),
      };
  }
}

/**
 * Rulesets whose rules that read masked members are replaced by ones that do what a record says,
 * made once per manifest and set of outcomes: records of one kind share a few.
 */
export class RecordedOutcomeRulesets {
  private readonly made = new Map<string, LoadedRuleset>();

  constructor(private readonly operators: CustomOperators) {}

  /** The ruleset of `manifest` with the rules in `outcomes` (by id) doing what the record says. */
  with(manifest: JsonObject, outcomes: ReadonlyMap<string, RecordedOutcome>): LoadedRuleset {
    const key = `${stringAt(manifest.checksum)}\u0000${stringAt(manifest.channel)}\u0000${[...outcomes].map(([rule, outcome]) => `${rule}=${outcome}`).join("\u0000")}`;
    let ruleset = this.made.get(key);
    if (ruleset === undefined) {
      const rules = listAt(manifest.rules).map((value) => {
        const rule = objectAt(value);
        const outcome = outcomes.get(stringAt(rule.id));
        return outcome === undefined ? rule : recordedRule(rule, outcome);
      });
      ruleset = LoadedRuleset.fromManifest({ ...manifest, rules }, this.operators);
      this.made.set(key, ruleset);
    }
    return ruleset;
  }
}
