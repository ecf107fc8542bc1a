import type { Channel } from "../bundle/channel.ts";
import { evaluateCheckedRequest } from "../evaluation/evaluate-request.ts";
import type { EvaluationResult, EvaluationTally } from "../evaluation/evaluation-result.ts";
import { EvaluationPlan } from "../evaluation/evaluation-plan.ts";
import type { CustomOperators } from "../expression/custom-operators.ts";
import type { JsonObject } from "../value/json-value.ts";
import type { ExplainMode } from "./explanation.ts";
import { ExplanationRecorder } from "./explanation-recorder.ts";
import { ExpressionTrace } from "./expression-trace.ts";

/** A plan whose rules record the value of every node they evaluate, with the tracer they record into. */
export interface TracedPlan {
  readonly plan: EvaluationPlan;
  readonly trace: ExpressionTrace;
}

/** Made once per ruleset and channel, on the first `full` explanation: plain evaluations never see it. */
export function tracedPlan(
  manifest: JsonObject,
  channel: Channel,
  operators: CustomOperators,
  codeGeneration: boolean,
): TracedPlan {
  const trace = new ExpressionTrace();
  return { plan: new EvaluationPlan(manifest, channel, operators, codeGeneration, trace), trace };
}

/**
 * Evaluates a shape-checked request and explains it. `rules` watches the plain plan; `full`
 * evaluates the traced plan, whose results are the same (the golden corpora are run both ways).
 * The result is the plain result with `explanation` added last.
 */
export function explainCheckedRequest(
  request: JsonObject,
  mode: ExplainMode,
  plain: EvaluationPlan,
  traced: () => TracedPlan,
  tally?: EvaluationTally,
): EvaluationResult {
  const { plan, trace } = mode === "full" ? traced() : { plan: plain, trace: undefined };
  const recorder = new ExplanationRecorder(plan, mode, trace);
  const result = evaluateCheckedRequest(plan, request, tally, recorder);
  result.explanation = recorder.explanation(request, result);
  return result;
}
