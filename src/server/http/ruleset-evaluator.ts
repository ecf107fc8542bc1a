import type { Channel } from "../../engine/bundle/channel.ts";
import type { EvaluationResult } from "../../engine/evaluation/evaluation-result.ts";
import type { JsonValue } from "../../engine/value/json-value.ts";
import type { ServedRuleset } from "../snapshot/served-ruleset.ts";

/**
 * Where evaluations run. On the event loop it is a direct call; worker threads ([6/7]) implement
 * the same interface, so the HTTP layer does not change.
 */
export interface RulesetEvaluator {
  evaluate(served: ServedRuleset, request: JsonValue, channel: Channel): Promise<EvaluationResult>;
}

export const eventLoopEvaluator: RulesetEvaluator = {
  evaluate: async (served, request, channel) => served.ruleset.evaluate(request, channel),
};
