import { compare } from "../../engine/number/arithmetic.ts";
import { didYouMean } from "../../engine/names/closest-name.ts";
import { isJsonObject, objectAt, setMember, stringAt, truthy } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { placeIn, type ProblemPlace } from "../problems/problem-place.ts";
import { validateRule } from "../schema/index.ts";
import { pointerPath } from "../source/json-pointer.ts";
import { fitsParamType } from "./param-value-type.ts";
import type { ResolutionProblems } from "./resolution-problems.ts";

const SEVERITY_RANK: Readonly<Record<string, number>> = { info: 0, warning: 1, error: 2 };

/**
 * Step 6: overrides of inherited params, within each param's override policy. An override with a
 * problem is reported and left out; the others still apply.
 */
export function overrideParams(
  id: string,
  overrides: JsonObject,
  params: JsonObject,
  doc: JsonObject,
  problems: ResolutionProblems,
): void {
  for (const [name, value] of Object.entries(overrides)) {
    const at = (part: "key" | "value"): ProblemPlace => placeIn(doc, ["overrides", "params", name], part);
    if (!isJsonObject(params[name])) {
      problems.report(
        "PARAM_UNKNOWN",
        `${id}: overrides unknown param ${name}${didYouMean(name, Object.keys(params))}`,
        at("key"),
      );
      continue;
    }
    const param = params[name] as JsonObject;
    const policy = stringAt(param.overridePolicy);
    if (policy === "locked") {
      problems.report("PARAM_LOCKED", `${id}: param ${name} is locked by ${stringAt(param.origin)}`, at("key"));
      continue;
    }
    if (!fitsParamType(param.type, value)) {
      problems.report(
        "PARAM_TYPE_MISMATCH",
        `${id}: the override of param ${name} is not a ${stringAt(param.type)}`,
        at("value"),
      );
      continue;
    }
    if (policy === "tighten-only" && typeof value === "number" && typeof param.value === "number") {
      const direction = stringAt(param.tightenDirection);
      const order = compare(value, param.value);
      if ((direction === "lower" && order > 0) || (direction !== "lower" && order < 0)) {
        problems.report(
          "PARAM_LOOSENED",
          `${id}: param ${name} may only move ${direction === "lower" ? "lower" : "higher"}`,
          at("value"),
        );
        continue;
      }
    }
    param.value = value;
  }
}

/**
 * Step 7: overrides of inherited rules; a tighten-only rule (the default) may only get stricter,
 * and the rule an override leaves must be one the schema accepts, as if it were written so. An
 * override with a problem is reported and left out; the others still apply.
 */
export function overrideRules(
  id: string,
  origin: string,
  overrides: readonly JsonValue[],
  rulesById: ReadonlyMap<string, JsonObject>,
  doc: JsonObject,
  problems: ResolutionProblems,
): void {
  for (const [index, entry] of overrides.entries()) {
    const override = objectAt(entry);
    const ruleId = stringAt(override.rule);
    const rule = rulesById.get(ruleId);
    const at = (...member: string[]): ProblemPlace => placeIn(doc, ["overrides", "rules", String(index), ...member]);
    if (!rule) {
      problems.report(
        "RULE_UNKNOWN",
        `${id}: overrides unknown rule ${ruleId}${didYouMean(ruleId, rulesById.keys())}`,
        at("rule"),
      );
      continue;
    }
    const policy = stringAt(rule.overridePolicy);
    if (policy === "locked") {
      problems.report("RULE_LOCKED", `${id}: rule ${ruleId} is locked by ${stringAt(rule.origin)}`, at("rule"), {
        rule: ruleId,
      });
      continue;
    }
    const change = objectAt(override.set);
    if (policy === "tighten-only" || policy === "") {
      const loosened = loosenedMember(change, rule);
      if (loosened !== undefined) {
        problems.report(
          "RULE_LOOSENED",
          `${id}: rule ${ruleId} is tighten-only and this override loosens it (${loosened.join(".")})`,
          at("set", ...loosened),
          { rule: ruleId },
        );
        continue;
      }
    }
    const changed: JsonObject = { ...rule };
    for (const [member, value] of Object.entries(change)) setMember(changed, member, value);
    const invalid = overriddenRuleProblems(changed, change);
    if (invalid.length > 0) {
      for (const problem of invalid) {
        const place =
          problem.member === undefined
            ? placeIn(doc, ["overrides", "rules", String(index), "set"], "key")
            : at("set", problem.member);
        problems.report(
          "SCHEMA_INVALID",
          `${id}: with this override rule ${ruleId} is not a valid rule: ${problem.message}`,
          place,
          { rule: ruleId },
        );
      }
      continue;
    }
    for (const [member, value] of Object.entries(change)) setMember(rule, member, value);
    rule.overriddenBy = origin;
  }
}

/** The member of an override's `set` that loosens a rule (its path inside `set`), or undefined; the author is sent to that line. */
function loosenedMember(change: JsonObject, rule: JsonObject): string[] | undefined {
  const newRank = SEVERITY_RANK[stringAt(change.severity)];
  const currentRank = SEVERITY_RANK[stringAt(rule.severity)];
  if (change.enabled === false) return ["enabled"];
  if (newRank !== undefined && currentRank !== undefined && newRank < currentRank) return ["severity"];
  if (truthy(objectAt(change.acceptance).allowed) && !truthy(objectAt(rule.acceptance).allowed))
    return ["acceptance", "allowed"];
  if (change.acknowledgement === "none" && rule.acknowledgement === "required") return ["acknowledgement"];
  return undefined;
}

/**
 * The schema problems of an inherited rule as an override leaves it (`severity: error` on a rule
 * whose acknowledgement is required), each with the member of `set` it is about when there is one.
 * What resolution added (origin, overriddenBy) is not the author's and is left out of the check.
 */
function overriddenRuleProblems(changed: JsonObject, change: JsonObject): { message: string; member?: string }[] {
  const { origin: _origin, overriddenBy: _overriddenBy, ...written } = changed;
  return validateRule(written).map((problem) => {
    const member = pointerPath(problem.path)[0];
    return member !== undefined && Object.hasOwn(change, member)
      ? { message: problem.message, member }
      : { message: problem.message };
  });
}
