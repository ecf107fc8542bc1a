/**
 * Errors the engine raises. Each is a typed value with a stable `code`, so that callers branch on
 * the code and never on message text.
 */

/**
 * An expression or a rule could not be evaluated (specification 4.1 rule 4). The engine fails
 * closed: the rule that raised it produces a `RULE-EVALUATION-ERROR` finding.
 */
export class EvaluationError extends Error {
  readonly code = "EVALUATION_ERROR" as const;
  override readonly name = "EvaluationError";
}

/** Raises an evaluation error; typed `never` so that callers can use it in expressions. */
export function fail(message: string): never {
  throw new EvaluationError(message);
}
