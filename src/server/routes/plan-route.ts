import { ChannelUnavailableError } from "../../engine/bundle/channel.ts";
import { REQUEST_REFUSALS } from "../../engine/evaluation/request-shape.ts";
import { PlanRequestError, readPlanRequest } from "../../engine/plan/plan-request.ts";
import { parseJson } from "../../engine/value/parse-json.ts";
import { answerPlan } from "../../plans/plan-answer.ts";
import { PlanQueryOptionsError, readPlanQueryOptions } from "../../plans/plan-query-options.ts";
import { HttpError } from "../http/http-error.ts";
import { withServerMembers } from "../evaluation/evaluation-reply.ts";
import { requireJsonBody } from "../http/json-content-type.ts";
import { jsonResponse } from "../http/json-response.ts";
import { readLimitedBody } from "../http/request-body.ts";
import type { RouteHandler } from "../http/route-context.ts";
import { RESULT_HEADERS } from "./evaluation-route.ts";
import { findRuleset } from "./ruleset-lookup.ts";

/**
 * `POST /plans` (DECISIONS.md "Plans"). Order of checks, as `POST /evaluations`: the credentials
 * and their `evaluate` scope, the media type (415), the size (413), the body (400: JSON, an object,
 * `ruleset`, `version`, `channel`, the request's shape, `want`, `dialect`, `columns`), the ruleset
 * and version (404), a wanted rule the ruleset has (400), then the plan, worked out on the event
 * loop (it reads no data: its cost is the rules', not a request's).
 */
export const plans: RouteHandler = async (request, { snapshot, auth, logFields }) => {
  const allowed = auth.require(request, "evaluate", logFields);
  if (allowed !== undefined) await allowed;
  requireJsonBody(request);
  const parsed = parseJson(await readLimitedBody(request));
  if (!parsed.ok)
    throw new HttpError(
      400,
      parsed.reason === "number-too-large" ? REQUEST_REFUSALS.numberTooLarge : "body is not valid JSON",
    );
  const body = withServerMembers(parsed.value);
  const channel = (body.channel as "server" | "client" | null | undefined) ?? "server";
  logFields.ruleset = body.ruleset as string;
  try {
    // The request's own checks come before the ruleset is looked up, as an evaluation's do.
    readPlanRequest(body);
    readPlanQueryOptions(body);
    const served = findRuleset(
      snapshot,
      body.ruleset as string,
      (body.version as string | null | undefined) ?? undefined,
    );
    const answer = answerPlan(served.ruleset, body, channel);
    logFields.plan = answer.kind;
    return jsonResponse(answer, 200, RESULT_HEADERS);
  } catch (error) {
    if (
      error instanceof PlanRequestError ||
      error instanceof PlanQueryOptionsError ||
      error instanceof ChannelUnavailableError
    )
      throw new HttpError(400, error.message);
    throw error;
  }
};
