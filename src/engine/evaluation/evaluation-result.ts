import type { JsonObject, JsonValue } from "../value/json-value.ts";
import type { Place } from "./request-shape.ts";
import type { Explanation } from "../explanation/explanation.ts";
import type { RequestWarning } from "../schema/request-warning.ts";

/** The evaluation result of specification section 8, with the summary members of our server. */
export type Decision = "allow" | "deny";
export type Resolution = "none" | "acknowledge" | "accept-risk";
export type FindingStatus = "open" | "acknowledged" | "accepted";
/** A validation rule's severity (specification section 8.1), which decides how its finding blocks. */
export type Severity = "info" | "warning" | "error";

export interface Finding {
  rule: string;
  code: string;
  severity: Severity;
  message: string;
  fields: string[];
  blocking: boolean;
  status: FindingStatus;
  resolution: Resolution;
  source: string;
  location?: Place;
  acceptableBy?: string[];
  /** The evaluated `finding.args`; `{}` when the rule has none. */
  args: JsonObject;
  /** Why a rule could not be evaluated (runtime-specific). */
  detail?: string;
}

export type Effect =
  | { type: "value"; field: string; value: JsonValue; rule: string }
  | { type: "state"; field: string; set: JsonObject; rule: string };

export interface Command {
  name: JsonValue;
  type: JsonValue;
  rule: string;
  idempotencyKey: string;
  payload: JsonObject;
  ref?: string;
}

export interface EvaluationResult {
  ruleset: string;
  version: string;
  checksum: string;
  decision: Decision;
  findings: Finding[];
  effects: Effect[];
  commands: Command[];
  /** True when at least one finding is blocking. */
  blocking: boolean;
  /** What the user may do about the blocking findings. */
  resolution: Resolution;
  /** The sorted union of the roles that may accept the blocking findings; absent when empty or when `resolution` is `none`. */
  acceptableBy?: string[];
  /** Only when asked for (`explain`): why the evaluation came out so. */
  explanation?: Explanation;
  /** Only with schema enforcement `warn`, and only when the request does not fit the ruleset. */
  warnings?: RequestWarning[];
}

/**
 * What an evaluation reports about itself beside its result, for hosts that count (logs,
 * metrics). The host passes one in and may reuse it: evaluation is synchronous.
 */
export interface EvaluationTally {
  /** How many rules took part: those selected by entity, operation, channel, trigger and view. */
  rules: number;
}

/** Sets the summary members, what the caller's user may do next, on a result being built. */
export function summarize(
  findings: readonly Finding[],
  result: Pick<EvaluationResult, "blocking" | "resolution" | "acceptableBy">,
): void {
  let blocking = 0;
  let allResolvable = true;
  let acceptRisk = false;
  let roles: string[] | undefined;
  for (const finding of findings) {
    if (!finding.blocking) continue;
    blocking++;
    if (finding.resolution === "none") allResolvable = false;
    else if (finding.resolution === "accept-risk") acceptRisk = true;
    if (finding.acceptableBy !== undefined) for (const role of finding.acceptableBy) addInOrder((roles ??= []), role);
  }
  result.blocking = blocking > 0;
  result.resolution = blocking > 0 && allResolvable ? (acceptRisk ? "accept-risk" : "acknowledge") : "none";
  // Roles that may accept are worth naming only when accepting can let the operation through.
  if (roles !== undefined && result.resolution !== "none") result.acceptableBy = roles;
}

/**
 * Adds a role to a list of distinct roles kept in the order of `sort()` on strings (UTF-16 code
 * units, which `<` compares). Lists are a few roles long; sorting them cost more than the summary.
 */
function addInOrder(roles: string[], role: string): void {
  let index = roles.length;
  while (index > 0 && roles[index - 1]! > role) index--;
  if (index > 0 && roles[index - 1] === role) return;
  if (index === roles.length) roles.push(role);
  else roles.splice(index, 0, role);
}
