import { requestAsker } from "../evaluation/request-asker.ts";
import type { EvaluationReply } from "../evaluation/evaluation-reply.ts";
import { batchReplyBody } from "../evaluation/batch-reply.ts";
import { readBatchRequest } from "../evaluation/batch-request.ts";
import { readLimitedBody } from "../http/request-body.ts";
import { requireJsonBody } from "../http/json-content-type.ts";
import { headersWithRequestId } from "../http/request-id.ts";
import type { RouteHandler } from "../http/route-context.ts";
import type { ServerMetrics } from "../metrics/server-metrics.ts";
import { RESULT_HEADERS } from "./evaluation-route.ts";
import { explainQuery } from "./explain-query.ts";
import { countReply } from "../evaluation/count-reply.ts";

/**
 * `POST /evaluations/batch` (DECISIONS.md, Extensions). Order of checks: the token, the body's
 * media type (415), records when required (503), `explain`, the body's size
 * (RULE_SERVER_BATCH_MAX_BYTES), the batch's own shape and item count; then each item is answered
 * as `POST /evaluations` would answer it on its own, in its place. The request metrics count the
 * batch once; each item that was evaluated counts as an evaluation.
 */
export const batchEvaluations: RouteHandler = async (
  request,
  { snapshot, auth, evaluator, metrics, logFields, identity, batchLimits, records },
) => {
  const allowed = auth.require(request, "evaluate", logFields);
  if (allowed !== undefined) await allowed;
  requireJsonBody(request);
  records?.requireAvailable();
  const explain = explainQuery(request.url);
  if (explain !== undefined) logFields.explain = explain;
  const items = readBatchRequest(await readLimitedBody(request, batchLimits.maxBytes), batchLimits.maxItems);
  // The items' evaluation as a span of its own: apart from reading and checking the batch, and answering it.
  const evaluation = identity.span?.child("evaluate batch items");
  const answer = evaluator.evaluateBatch(
    snapshot,
    items,
    explain,
    records === undefined ? undefined : requestAsker(identity.id, logFields),
  );
  const replies = answer instanceof Promise ? await answer : answer;
  evaluation?.end({ "rule_server.batch.items": items.length });
  if (records !== undefined) for (const reply of replies) records.write(reply);
  countItems(replies, metrics, logFields);
  return new Response(batchReplyBody(items, replies), {
    status: 200,
    headers: headersWithRequestId(identity, RESULT_HEADERS),
  });
};

/**
 * The metrics of every item, and the batch's log line: `items`, `decisions` (how many of each),
 * `errors` (items answered with a problem), `warnings` when any item had some, and `ruleset` when
 * every item that named one named the same.
 */
function countItems(
  replies: readonly EvaluationReply[],
  metrics: ServerMetrics,
  logFields: Record<string, unknown>,
): void {
  const decisions: Record<string, number> = { allow: 0, deny: 0 };
  let errors = 0;
  let warningCount = 0;
  let ruleset: string | undefined;
  let oneRuleset = true;
  for (const reply of replies) {
    if (reply.status !== 200) errors++;
    if (reply.summary !== undefined) decisions[reply.summary.decision] = (decisions[reply.summary.decision] ?? 0) + 1;
    warningCount += countReply(reply, metrics)?.length ?? 0;
    if (reply.ruleset !== undefined) {
      if (ruleset === undefined) ruleset = reply.ruleset;
      else if (ruleset !== reply.ruleset) oneRuleset = false;
    }
  }
  if (ruleset !== undefined && oneRuleset) logFields.ruleset = ruleset;
  logFields.items = replies.length;
  logFields.decisions = decisions;
  logFields.errors = errors;
  if (warningCount > 0) logFields.warnings = warningCount;
}
