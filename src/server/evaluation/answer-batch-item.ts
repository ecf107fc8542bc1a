import type { BatchItem } from "./batch-request.ts";
import {
  answerRequest,
  evaluationFailed,
  refusal,
  type AnswerOptions,
  type EvaluationReply,
  type RecordAsker,
  type RulesetFinder,
} from "./evaluation-reply.ts";

/**
 * One item of a batch answered on this thread: refused for its own faults, or answered by the
 * function that answers a single request. An unexpected failure is that item's 500 (as a worker
 * reports one), never the batch's. `asker` is the batch's, for each item's record.
 */
export function answerBatchItem(
  item: BatchItem,
  find: RulesetFinder,
  options: AnswerOptions,
  asker?: RecordAsker,
): EvaluationReply {
  if (item.refusal !== undefined) return refusal(item.refusal);
  try {
    return answerRequest(item.request, find, options, asker);
  } catch (error) {
    return refusal(evaluationFailed(error instanceof Error ? error.message : String(error)));
  }
}
