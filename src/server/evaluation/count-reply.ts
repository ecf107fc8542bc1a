import type { ServerMetrics } from "../metrics/server-metrics.ts";
import type { EvaluationReply } from "./evaluation-reply.ts";

/**
 * Counts one reply in the metrics, as a single request or a batch item: an evaluation that ran,
 * and the warnings of an evaluation (`warn`) or of a refusal (`reject`) by code. Returns the
 * warnings, which the log line counts.
 */
export function countReply(reply: EvaluationReply, metrics: ServerMetrics): readonly string[] | undefined {
  if (reply.summary !== undefined) metrics.countEvaluation(reply.summary);
  const warnings = reply.summary?.warnings ?? reply.refusedWarnings;
  if (warnings !== undefined) metrics.countRequestWarnings(reply.ruleset!, warnings);
  return warnings;
}
