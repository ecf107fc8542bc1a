import { code, listed, named, type Words } from "./explanation-words.ts";
import { placeLabel } from "./place-label.ts";
import type { WordedRule } from "./explanation.ts";
import type { ExplanationContext, RuleFacts } from "./wording-context.ts";
import type { JsonValue } from "../value/json-value.ts";

/**
 * Why a rule did not take part, from the selection test it failed: what the rule asks against
 * what the request gave where the context knows both, the test alone where it does not.
 */
export function notSelectedWords(entry: WordedRule, context: ExplanationContext): Words {
  const because = typeof entry.because === "string" ? entry.because : "";
  const rule = context.rules?.get(entry.rule);
  const request = context.request;
  switch (because) {
    case "disabled":
      return ["the rule is disabled"];
    case "entity":
      return aboutEntity(rule, request?.entity);
    case "operation":
      return runsOn(rule?.operations, request?.operation, "operation");
    case "channel":
      return [entry.kind === "action" ? "actions run on the server only" : "it does not run on this channel"];
    case "enforcement":
      return ["it is enforced on the other channel only"];
    case "trigger":
      return runsOn(rule === undefined ? undefined : (rule.triggers ?? ["submit"]), request?.trigger, "trigger");
    case "view":
      return rule === undefined
        ? ["its place is outside the request's view"]
        : ["its place, ", code(placeLabel(rule.target)), ", is outside the view"];
    case "decision":
      return ["actions run only when the decision is allow"];
    case "kind":
      return ["its kind, ", code(entry.kind), ", is an extension no runtime runs"];
    default:
      return ["the engine's reason is ", code(because)];
  }
}

/** `it is about Order, the request about Transfer`, less what the context does not know. */
function aboutEntity(rule: RuleFacts | undefined, given: JsonValue | undefined): Words {
  const entity = rule?.target.entity;
  if (entity === undefined)
    return given === undefined
      ? ["it is about another entity than the request's"]
      : ["it is about another entity than ", named(given)];
  return given === undefined
    ? ["it is about ", code(entity), ", not the request's entity"]
    : ["it is about ", code(entity), ", the request about ", named(given)];
}

/** `it runs on update, not on create` (an operation or a trigger), less what the context does not know. */
function runsOn(asks: readonly string[] | undefined, given: JsonValue | undefined, what: string): Words {
  const gave: Words = given === undefined ? [`the request's ${what}`] : [named(given)];
  return asks === undefined
    ? ["it does not run on ", ...gave]
    : ["it runs on ", ...listed(asks, " or "), ", not on ", ...gave];
}
