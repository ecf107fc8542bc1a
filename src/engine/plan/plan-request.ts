import { isJsonObject } from "../value/json-access.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
import { requestShapeProblem } from "../evaluation/request-shape.ts";

/**
 * A plan request (DECISIONS.md "Plans"): an evaluation request without `data`, and what is wanted
 * of the decision. Its shape is checked as an evaluation request's is.
 */
export type PlanWant = "allow" | "deny" | { readonly rule: string };

export class PlanRequestError extends Error {
  readonly code = "BAD_REQUEST" as const;
  override readonly name = "PlanRequestError";
}

export interface PlanRequest {
  readonly entity: string;
  readonly operation: string;
  readonly want: PlanWant;
  /** The request as evaluation reads it (entity, operation, actor, ctx, original, trigger, view, resolutions). */
  readonly evaluationRequest: JsonObject;
}

/** The request's wanted outcome and its evaluation members; throws PlanRequestError for a malformed one. */
export function readPlanRequest(request: JsonValue): PlanRequest {
  if (!isJsonObject(request)) throw new PlanRequestError("a plan request is an object");
  if (Object.hasOwn(request, "data"))
    throw new PlanRequestError("'data' is what a plan leaves unknown: a plan request has none");
  const problem = requestShapeProblem(request);
  if (problem !== undefined) throw new PlanRequestError(problem);
  return {
    entity: request.entity as string,
    operation: request.operation as string,
    want: readWant(request.want),
    evaluationRequest: request,
  };
}

function readWant(want: JsonValue | undefined): PlanWant {
  if (want === undefined || want === null || want === "allow") return "allow";
  if (want === "deny") return "deny";
  if (isJsonObject(want) && typeof want.rule === "string" && Object.keys(want).length === 1) return { rule: want.rule };
  throw new PlanRequestError(`'want' must be "allow", "deny" or {"rule": id}`);
}
