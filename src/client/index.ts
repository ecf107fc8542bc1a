/**
 * The client entry point of the npm package (`rule-server/client`): a typed client for the rule
 * server's HTTP API. It holds no engine: `ruleset()` imports the engine entry point when first
 * called, so a program that only calls the server never loads it.
 */
export { createClient, type RuleServerClient } from "./create-client.ts";
export { RuleServerError, type RuleServerErrorCode, type ServerProblemCode } from "./rule-server-error.ts";
export type {
  BatchDefaults,
  BatchEvaluationItem,
  CallOptions,
  Channel,
  ClientOptions,
  EvaluateOptions,
  ExplainedEvaluationResult,
  ExplainMode,
  FetchFunction,
  RulesetListOptions,
  RulesetOptions,
} from "./client-types.ts";
export type { LoadOptions, Ruleset } from "../browser/rule-cascade.ts";
export type * from "./wire-types.ts";
