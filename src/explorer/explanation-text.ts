import type {
  Explanation,
  Finding,
  JsonObject,
  JsonValue,
  ResolutionExplanation,
  RuleExplanation,
} from "../browser/rule-cascade.ts";
import { PLACE_LEVELS, type ManifestRule } from "./client-manifest.ts";
import { valueText } from "./expression-text.ts";
import { noItemWords } from "./no-item-words.ts";
import { placeLabel } from "./rule-places.ts";

/**
 * What an explanation says, in words for people: a rule's status, a resolution's fate, a misspelt
 * name. Names are `{code}` parts, shown as code by the page. No DOM here, so it is unit-tested.
 */
export type Words = readonly (string | { readonly code: string })[];

/** The words as one string, code in backticks (for tests and titles). */
export function wordsText(words: Words): string {
  return words.map((part) => (typeof part === "string" ? part : `\`${part.code}\``)).join("");
}

const code = (text: string): { code: string } => ({ code: text });

/** A JSON value the request or the explanation gave: a string as it is, anything else as JSON. */
function named(value: JsonValue | undefined): { code: string } {
  return code(typeof value === "string" ? value : valueText(value ?? null));
}

function listed(names: readonly string[], last = ", "): Words {
  return names.flatMap((name, index) =>
    index === 0 ? [code(name)] : [index === names.length - 1 ? last : ", ", code(name)],
  );
}

/** A rule's status as a short label for its badge. */
export function statusLabel(status: RuleExplanation["status"]): string {
  return (
    { "not-selected": "not selected", "when-false": "when false", passed: "passed", fired: "fired", error: "error" }[
      status
    ] ?? status
  );
}

function notSelected(because: string, rule: ManifestRule | undefined, request: JsonObject): Words {
  switch (because) {
    case "disabled":
      return ["not selected: the rule is disabled"];
    case "entity":
      return rule?.target.entity === undefined
        ? ["not selected: it is about another entity than ", named(request.entity)]
        : ["not selected: it is about ", code(rule.target.entity), ", the request about ", named(request.entity)];
    case "operation":
      return [
        "not selected: it runs on ",
        ...listed(rule?.operations ?? [], " or "),
        ", not on ",
        named(request.operation),
      ];
    case "channel":
      return [
        rule?.kind === "action" ? "not selected: actions run on the server only" : "not selected: not on this channel",
      ];
    case "enforcement":
      return ["not selected: enforced on the other channel only"];
    case "trigger":
      return [
        "not selected: it runs on ",
        ...listed(rule?.triggers ?? ["submit"], " or "),
        ", not on ",
        named(request.trigger),
      ];
    case "view": {
      const place = Object.fromEntries(
        PLACE_LEVELS.flatMap((level) => (rule?.target[level] === undefined ? [] : [[level, rule.target[level]]])),
      );
      return ["not selected: its place, ", code(placeLabel(place)), ", is outside the view"];
    }
    case "decision":
      return ["not run: actions run only when the decision is allow"];
    case "kind":
      return ["not selected: its kind, ", code(rule?.kind ?? "?"), ", is an extension no runtime runs"];
    default:
      return ["not selected: ", code(because)];
  }
}

function fired(entry: RuleExplanation, rule: ManifestRule | undefined): Words {
  switch (entry.kind) {
    case "validation":
      return rule?.finding === undefined
        ? ["fired: its assertion failed, a finding"]
        : ["fired: its assertion failed, finding ", code(rule.finding.code)];
    case "compute":
      return rule?.assign === undefined
        ? ["fired: computed a value"]
        : [
            "fired: computed ",
            ...listed(
              rule.assign.map((assignment) => assignment.field),
              " and ",
            ),
          ];
    case "state":
      return rule?.effects === undefined
        ? ["fired: set a state"]
        : [
            "fired: set the state of ",
            ...listed(
              rule.effects.map((effect) => effect.field),
              " and ",
            ),
          ];
    case "action":
      return ["fired: sent its commands"];
    default:
      return ["fired"];
  }
}

function passed(kind: string): Words {
  switch (kind) {
    case "validation":
      return ["passed: its assertion holds"];
    case "compute":
      return ["ran, computed nothing (the field already has a value)"];
    default:
      return ["ran, produced nothing"];
  }
}

/**
 * What a rule did, in a line: not selected and why, its condition false, passed, fired with what,
 * or the error it failed closed with. `request` is the request the explanation is of.
 */
export function statusWords(entry: RuleExplanation, rule: ManifestRule | undefined, request: JsonObject): Words {
  const words: Words = (() => {
    switch (entry.status) {
      case "not-selected":
        return notSelected(typeof entry.because === "string" ? entry.because : "", rule, request);
      case "when-false":
        return ["its condition (when) is false: the rule did not run"];
      case "passed":
        return noItemWords(entry, rule, request) ?? passed(entry.kind);
      case "fired":
        return fired(entry, rule);
      case "error":
        return ["error: ", entry.message ?? "the rule could not be evaluated", " (the rule fails closed)"];
      default:
        return [String(entry.status)];
    }
  })();
  return entry.field === undefined ? words : [...words, " · for ", code(entry.field)];
}

const RESOLVED: Readonly<Record<string, string>> = { acknowledge: "acknowledged", "accept-risk": "accepted" };

/**
 * What became of a resolution the request gave: the rule and type, then applied, or why not (the
 * page shows whether it applied beside these words). `findings` are the evaluation's: a rule's
 * finding says which resolution it takes.
 */
export function resolutionWords(
  resolution: ResolutionExplanation,
  rule: ManifestRule | undefined,
  findings: readonly Finding[],
): Words {
  const given: Words = [named(resolution.rule), " ", named(resolution.type), ": "];
  if (resolution.applied)
    return [...given, `the finding is ${RESOLVED[String(resolution.type)] ?? "resolved"} and no longer blocks`];
  switch (resolution.reason) {
    case "rule-unknown":
      return [...given, "no rule of this manifest has this id"];
    case "no-finding":
      return [...given, "the rule produced no finding, so there is nothing to resolve"];
    case "not-blocking":
      return [...given, "the rule's finding does not block, so there is nothing to resolve"];
    case "type-not-accepted": {
      const taken = findings.find((finding) => finding.rule === resolution.rule && finding.blocking)?.resolution;
      return taken === undefined || taken === "none"
        ? [...given, "the rule's finding cannot be resolved at all"]
        : [...given, "the rule's finding is resolved by ", code(taken), ", not ", named(resolution.type)];
    }
    case "justification-missing":
      return [...given, "accepting this risk needs a justification"];
    case "role-not-allowed": {
      const roles = rule?.acceptance?.roles ?? [];
      return roles.length === 0
        ? [...given, "the actor has no role that may accept this risk"]
        : [...given, "only ", ...listed(roles, " or "), " may accept this risk, and the actor has none of these roles"];
    }
    default:
      return [...given, resolution.reason === undefined ? "not applied" : `not applied (${resolution.reason})`];
  }
}

/** A request's entity or operation that no rule names, with the closest name when there is one. */
export function unmatchedWords(unmatched: NonNullable<Explanation["unmatched"]>, request: JsonObject): Words[] {
  const said: Words[] = [];
  const guess = (didYouMean: string | undefined): Words =>
    didYouMean === undefined ? ["."] : [": did you mean ", code(didYouMean), "?"];
  if (unmatched.entity !== undefined)
    said.push([
      "No rule of this ruleset targets ",
      code(unmatched.entity.given),
      ...guess(unmatched.entity.didYouMean),
    ]);
  if (unmatched.operation !== undefined) {
    const about: Words =
      unmatched.entity === undefined
        ? ["No rule of ", named(request.entity), " runs on "]
        : ["No rule of this ruleset runs on "];
    said.push([...about, code(unmatched.operation.given), ...guess(unmatched.operation.didYouMean)]);
  }
  return said;
}
