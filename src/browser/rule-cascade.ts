/**
 * The browser module (`dist/browser/rule-cascade.js`): the engine the server runs, for a page
 * that evaluates a client manifest while the user types. It imports nothing but the engine; the
 * browser build swaps only the pattern backend (build.ts).
 */
export { loadRuleset, type Ruleset, type LoadOptions, type EvaluateOptions, type CustomOperator } from "./ruleset.ts";
export { fetchRuleset, FetchRulesetError, type FetchOptions } from "./fetch-ruleset.ts";
export { LoadError, type LoadProblem } from "../engine/bundle/load-problem.ts";
export { ChannelUnavailableError } from "../engine/bundle/channel.ts";
export { RequestShapeError } from "../engine/evaluation/request-shape.ts";
export { EvaluationError } from "../engine/errors.ts";
export { PlanRequestError, type PlanWant } from "../engine/plan/plan-request.ts";
export type { PlanResult } from "../engine/plan/plan-result.ts";
export type { PlanCondition, PlanOperand, PlanScalar, PlanValueType } from "../engine/plan/plan-condition.ts";
export { conditionHolds } from "../engine/plan/condition-holds.ts";
export { sqlWhere, type SqlWhereOptions } from "../queries/sql-where.ts";
export { prismaWhere, type PrismaWhere, type PrismaWhereOptions } from "../queries/prisma-where.ts";
export { PlanNotTranslatableError } from "../queries/plan-not-translatable.ts";
export {
  RequestMisfitError,
  type RequestWarning,
  type RequestWarningCode,
  type SchemaEnforcement,
} from "../engine/schema/request-warning.ts";
// For pages that show rules by place and messages by locale the way the engine finds them.
export { VIEW_KEYS } from "../engine/evaluation/request-shape.ts";
export { localeFallbacks } from "../engine/evaluation/locale-fallbacks.ts";
export type { Channel } from "../engine/bundle/channel.ts";
export type {
  EvaluationResult,
  Finding,
  Effect,
  Command,
  Decision,
  Resolution,
  Severity,
} from "../engine/evaluation/evaluation-result.ts";
export type { JsonValue, JsonObject } from "../engine/value/json-value.ts";
export type {
  Explanation,
  ExplainMode,
  ExplainedNode,
  RuleExplanation,
  RuleStatus,
  NotSelectedReason,
  ResolutionExplanation,
  CommandExplanation,
  UnmatchedName,
} from "../engine/explanation/explanation.ts";
