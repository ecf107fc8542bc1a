import type { EngineOptions } from "../engine/bundle/loaded-ruleset.ts";
/**
 * The engine of the rulesets a load gives: what tools do with them (golden tests, one evaluation,
 * diagnostics) evaluates each a few times, for which closures cost less to make than generated
 * code, with the same answers. The server serves rulesets it makes afresh from their bundles
 * (src/server/snapshot/rules-snapshot.ts), with generated code.
 */
export const TOOL_ENGINE: EngineOptions = { codeGeneration: false };
