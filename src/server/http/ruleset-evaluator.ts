import type { Channel } from "../../engine/bundle/channel.ts";
import type { JsonObject } from "../../engine/value/json-value.ts";
import type { RulesSnapshot } from "../snapshot/rules-snapshot.ts";
import type { ServedRuleset } from "../snapshot/served-ruleset.ts";

/**
 * Where evaluations run: on the event loop, or on worker threads (workers/worker-pool.ts). Both
 * answer the serialized result, so a worker's bytes reach the client unchanged.
 */
export interface EvaluationAnswer {
  readonly body: string;
  readonly decision: string;
}

export interface RulesetEvaluator {
  /** `request` has passed the shape check already. */
  evaluate(snapshot: RulesSnapshot, served: ServedRuleset, request: JsonObject, channel: Channel): Promise<EvaluationAnswer>;
  /** A new snapshot is being served; evaluations that started on the previous one finish on it. */
  useSnapshot(snapshot: RulesSnapshot): Promise<void>;
  /** Ends the evaluator after the evaluations in flight. */
  close(): Promise<void>;
}

export const eventLoopEvaluator: RulesetEvaluator = {
  evaluate: async (_snapshot, served, request, channel) => {
    const result = served.ruleset.evaluateChecked(request, channel);
    return { body: JSON.stringify(result), decision: result.decision };
  },
  useSnapshot: async () => undefined,
  close: async () => undefined,
};
