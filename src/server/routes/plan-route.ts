import { ChannelUnavailableError } from "../../engine/bundle/channel.ts";
import { REQUEST_REFUSALS } from "../../engine/evaluation/request-shape.ts";
import { PlanRequestError, readPlanRequest } from "../../engine/plan/plan-request.ts";
import { parseJson } from "../../engine/value/parse-json.ts";
import { answerPlan } from "../../plans/plan-answer.ts";
import { PlanAnswerCache } from "../../plans/plan-answer-cache.ts";
import { PlanQueryOptionsError, readPlanQueryOptions } from "../../plans/plan-query-options.ts";
import { HttpError } from "../http/http-error.ts";
import { withServerMembers } from "../evaluation/evaluation-reply.ts";
import { requireJsonBody } from "../http/json-content-type.ts";
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
/** The answers already given, by ruleset and request text (a plan is a function of the two). */
const ANSWERS = new PlanAnswerCache<{ readonly json: string; readonly kind: string }>();

export const plans: RouteHandler = async (request, { snapshot, auth, logFields }) => {
  const allowed = auth.require(request, "evaluate", logFields);
  if (allowed !== undefined) await allowed;
  requireJsonBody(request);
  const text = await readLimitedBody(request);
  const parsed = parseJson(text);
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
    const cached = ANSWERS.get(served.ruleset, text);
    if (cached !== undefined) {
      logFields.plan = cached.kind;
      logFields.planCached = true;
      return new Response(cached.json, { headers: RESULT_HEADERS });
    }
    const answer = answerPlan(served.ruleset, body, channel);
    logFields.plan = answer.kind;
    const json = JSON.stringify(answer);
    ANSWERS.set(served.ruleset, text, { json, kind: answer.kind });
    return new Response(json, { headers: RESULT_HEADERS });
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
