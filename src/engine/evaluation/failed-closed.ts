import { EvaluationError } from "../errors.ts";
import type { Finding } from "./evaluation-result.ts";
import type { PreparedRule } from "./prepared-rule.ts";

/** A rule that could not be evaluated fails closed with one fixed finding (specification 8). */
export const EVALUATION_ERROR_CODE = "RULE-EVALUATION-ERROR";
export const EVALUATION_ERROR_MESSAGE = "This rule could not be evaluated.";

/** Why a rule could not be evaluated, as its finding's `detail` (and an explanation's `error`) says it. */
export function failureDetail(error: unknown): string {
  return error instanceof EvaluationError
    ? error.message
    : `internal error: ${error instanceof Error ? error.message : String(error)}`;
}

/** The fixed finding of a rule that could not be evaluated. */
export function failedClosedFinding(rule: PreparedRule, detail: string): Finding {
  return {
    rule: rule.id,
    code: EVALUATION_ERROR_CODE,
    severity: "error",
    message: EVALUATION_ERROR_MESSAGE,
    fields: [],
    blocking: true,
    status: "open",
    resolution: "none",
    source: rule.origin,
    args: {},
    detail,
  };
}
