import { requestAsker } from "../evaluation/request-asker.ts";
import { PROBLEM_HEADERS } from "../http/http-error.ts";
import { readLimitedBody } from "../http/request-body.ts";
import { requireJsonBody } from "../http/json-content-type.ts";
import { headersWithRequestId } from "../http/request-id.ts";
import type { RouteHandler } from "../http/route-context.ts";
import { explainQuery } from "./explain-query.ts";
import { countReply } from "../evaluation/count-reply.ts";

/** An evaluation result is for the request that asked for it: never stored by a cache. */
export const RESULT_HEADERS = { "Content-Type": "application/json", "Cache-Control": "no-store" } as const;

/**
 * `POST /evaluations`. Order of checks: the credentials and their `evaluate` scope, the body's media type (415 for one that is not
 * JSON), whether records can be written when they are required (503), the body's size, then (in the
 * evaluator, see evaluation/evaluation-reply.ts) the body's content, the ruleset and version, the evaluation.
 * The reply's summary (computed by whichever thread evaluated) goes to the log line and the metrics.
 */
export const evaluations: RouteHandler = async (
  request,
  { snapshot, auth, evaluator, metrics, logFields, identity, records },
) => {
  const allowed = auth.require(request, "evaluate", logFields);
  if (allowed !== undefined) await allowed;
  requireJsonBody(request);
  records?.requireAvailable();
  const explain = explainQuery(request.url);
  if (explain !== undefined) logFields.explain = explain;
  // On a worker, the evaluation's own span: how long it waited for a worker and ran there.
  const inWorker = evaluator.inWorkers ? identity.span?.child("evaluate in a worker") : undefined;
  const answer = evaluator.evaluate(
    snapshot,
    await readLimitedBody(request),
    explain,
    records === undefined ? undefined : requestAsker(identity.id, logFields),
  );
  // On the event loop the reply is there at once: awaiting it would cost a turn of the microtask queue.
  const reply = answer instanceof Promise ? await answer : answer;
  inWorker?.end(
    { "http.response.status_code": reply.status },
    reply.status >= 500 ? `answered ${reply.status}` : undefined,
  );
  records?.write(reply);
  if (reply.summary !== undefined) Object.assign(logFields, reply.summary);
  else if (reply.ruleset !== undefined) logFields.ruleset = reply.ruleset;
  const warnings = countReply(reply, metrics);
  if (warnings !== undefined) logFields.warnings = warnings.length;
  return new Response(reply.body, {
    status: reply.status,
    headers: headersWithRequestId(identity, reply.status === 200 ? RESULT_HEADERS : PROBLEM_HEADERS),
  });
};
