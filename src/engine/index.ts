/**
 * The engine's public surface: read a bundle or a manifest, evaluate requests, evaluate single
 * expressions. Free of Bun and Node APIs, so that a browser can evaluate a client manifest with
 * exactly this code.
 */
export { ChannelUnavailableError } from "./bundle/channel.ts";
export { LoadedRuleset, type EvaluateOptions } from "./bundle/loaded-ruleset.ts";
export {
  isExplainMode,
  EXPLAIN_REFUSAL,
  type Explanation,
  type ExplainMode,
  type ExplainedNode,
  type RuleExplanation,
} from "./explanation/explanation.ts";
export { LoadError, type LoadProblem } from "./bundle/load-problem.ts";
export type { Channel } from "./bundle/channel.ts";
export { RequestShapeError, requestShapeProblem } from "./evaluation/request-shape.ts";
export type {
  EvaluationResult,
  EvaluationTally,
  Finding,
  Effect,
  Command,
  Decision,
  Resolution,
} from "./evaluation/evaluation-result.ts";
export { EvaluationError } from "./errors.ts";
export type { PlanResult } from "./plan/plan-result.ts";
export { PlanRequestError, type PlanWant } from "./plan/plan-request.ts";
export type { PlanCondition, PlanOperand, PlanScalar, PlanValueType } from "./plan/plan-condition.ts";
export { conditionHolds } from "./plan/condition-holds.ts";
export { evaluateExpression, type ExpressionEnvironment } from "./expression/evaluate-expression.ts";
export type { CustomOperator, CustomOperators } from "./expression/custom-operators.ts";
export type { JsonValue, JsonObject } from "./value/json-value.ts";
export { parseJson } from "./value/parse-json.ts";
