import type { ExplainMode } from "../../engine/explanation/explanation.ts";
import type { RulesSnapshot } from "../snapshot/rules-snapshot.ts";
import { answerBatchItem } from "./answer-batch-item.ts";
import type { BatchItem } from "./batch-request.ts";
import { answerEvaluation, answerOptionsFor, type EvaluationReply, type RecordAsker } from "./evaluation-reply.ts";
import type { SchemaEnforcement } from "../../engine/schema/request-fit.ts";
import type { RecordMask } from "../../records/record-mask.ts";

/**
 * Where evaluations run: on the event loop, or on worker threads (workers/worker-pool.ts). Both
 * compute the reply with `answerEvaluation`, so a worker's bytes reach the client unchanged. The
 * request id is the request's (a batch's for every item), the caller the one authentication found:
 * with records on, each record is made, id, caller and all, where the evaluation ran.
 */
export interface RulesetEvaluator {
  /** Whether evaluations run on worker threads (a wait for a free worker, then the evaluation): worth a span of their own. */
  readonly inWorkers: boolean;
  /** Answers a request body (within the size limit) against a snapshot's rulesets. */
  evaluate(
    snapshot: RulesSnapshot,
    body: string,
    explain: ExplainMode | undefined,
    /** Who asked, for the decision record: only with records on. */
    asker: RecordAsker | undefined,
  ): EvaluationReply | Promise<EvaluationReply>;
  /** Answers every item of a batch, in order; an item's failure is its own reply, never a rejection. */
  evaluateBatch(
    snapshot: RulesSnapshot,
    items: readonly BatchItem[],
    explain: ExplainMode | undefined,
    asker: RecordAsker | undefined,
  ): EvaluationReply[] | Promise<EvaluationReply[]>;
  /** A new snapshot is being served; evaluations that started on the previous one finish on it. */
  useSnapshot(snapshot: RulesSnapshot): Promise<void>;
  /** Ends the evaluator after the evaluations in flight. */
  close(): Promise<void>;
}

/** Evaluation on the event loop, under the server's schema enforcement. */
export function eventLoopEvaluator(schemaEnforcement: SchemaEnforcement, recordMask?: RecordMask): RulesetEvaluator {
  const options = answerOptionsFor(schemaEnforcement, recordMask);
  return {
    inWorkers: false,
    evaluate: (snapshot, body, explain, asker) =>
      answerEvaluation(body, (id) => snapshot.rulesets.get(id)?.ruleset, options(explain), asker),
    evaluateBatch: (snapshot, items, explain, asker) => {
      const find = (id: string) => snapshot.rulesets.get(id)?.ruleset;
      const itemOptions = options(explain);
      const replies: EvaluationReply[] = new Array(items.length);
      for (let index = 0; index < items.length; index++)
        replies[index] = answerBatchItem(items[index]!, find, itemOptions, asker);
      return replies;
    },
    useSnapshot: async () => undefined,
    close: async () => undefined,
  };
}
