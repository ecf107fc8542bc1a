import { requestShapeProblem } from "../../engine/evaluation/request-shape.ts";
import { isJsonObject } from "../../engine/value/json-access.ts";
import { parseJson } from "../../engine/value/parse-json.ts";
import { HttpError } from "../http/http-error.ts";
import { readLimitedBody } from "../http/request-body.ts";
import type { RouteHandler } from "../http/route-context.ts";
import { findRuleset } from "./ruleset-lookup.ts";

/**
 * `POST /evaluations`. Order of checks: token; the body (size, JSON, the server's members, then
 * the same shape check every runtime applies); ruleset and version; evaluation.
 */
export const evaluations: RouteHandler = async (request, { snapshot, token, evaluator, logFields }) => {
  token.require(request);
  const parsed = parseJson(await readLimitedBody(request));
  if (!parsed.ok) throw new HttpError(400, parsed.reason === "number-too-large" ? "a number is too large for a double" : "body is not valid JSON");
  const body = parsed.value;
  if (!isJsonObject(body)) throw new HttpError(400, "the body must be a JSON object");
  if (typeof body.ruleset !== "string") throw new HttpError(400, "'ruleset' must be a string");
  if (body.version !== undefined && body.version !== null && typeof body.version !== "string") throw new HttpError(400, "'version' must be a string");
  const channel = body.channel ?? "server";
  if (channel !== "server" && channel !== "client") throw new HttpError(400, `'channel' must be "client" or "server"`);
  const problem = requestShapeProblem(body);
  if (problem !== undefined) throw new HttpError(400, problem);
  logFields.ruleset = body.ruleset;
  const served = findRuleset(snapshot, body.ruleset, (body.version as string | null | undefined) ?? undefined);
  const answer = await evaluator.evaluate(snapshot, served, body, channel);
  logFields.decision = answer.decision;
  return new Response(answer.body, { status: 200, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" } });
};
