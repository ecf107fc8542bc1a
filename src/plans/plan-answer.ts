import type { Channel } from "../engine/bundle/channel.ts";
import type { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import type { PlanCondition } from "../engine/plan/plan-condition.ts";
import type { PlanResult } from "../engine/plan/plan-result.ts";
import type { JsonObject } from "../engine/value/json-value.ts";
import { PlanNotTranslatableError } from "../queries/plan-not-translatable.ts";
import type { SqlText } from "../queries/sql-fragment.ts";
import { sqlWhere } from "../queries/sql-where.ts";
import { readPlanQueryOptions } from "./plan-query-options.ts";
import { widenedCondition } from "./widened-condition.ts";

/** The answer to a plan request: the engine's plan, and its WHERE clause when a dialect was asked for. */
export interface PlanAnswer extends PlanResult {
  sql?: SqlText;
}

/**
 * A plan request (its shape checked by the engine, its query members here) answered against a
 * loaded ruleset: `POST /plans` and `rule-server plan` both answer with this. Throws
 * PlanRequestError or PlanQueryOptionsError (400) for a malformed request.
 */
export function answerPlan(ruleset: LoadedRuleset, request: JsonObject, channel?: Channel): PlanAnswer {
  const options = readPlanQueryOptions(request);
  const plan: PlanAnswer = ruleset.plan(request, channel);
  if (options.dialect === undefined) return plan;
  let condition: PlanCondition | boolean = plan.condition ?? plan.kind === "always";
  let widened = false;
  while (typeof condition !== "boolean") {
    const translated = sqlWhere(condition, {
      dialect: options.dialect,
      columns: options.columns,
      columnTypes: options.columnTypes,
    });
    if (!(translated instanceof PlanNotTranslatableError)) {
      plan.sql = translated;
      break;
    }
    // A node SQL cannot say exactly: the query holds for it and more, and the rows need evaluating.
    condition = widenedCondition(condition, translated.node);
    widened = true;
  }
  if (typeof condition === "boolean") plan.sql = { where: condition ? "TRUE" : "FALSE", params: [] };
  if (widened) markNotExact(plan, ruleset, request, channel);
  return plan;
}

/**
 * The query is wider than the condition: the plan is no longer exact, and every rule the request
 * selects is left to evaluate (the query cannot say which leaf came from which rule).
 */
function markNotExact(plan: PlanAnswer, ruleset: LoadedRuleset, request: JsonObject, channel?: Channel): void {
  plan.exact = false;
  const selected = ruleset.evaluationPlan(channel).select(request.entity as string, request.operation as string);
  const ids = [selected.compute, selected.state, selected.validation, selected.action].flat().map((rule) => rule.id);
  plan.residualRules = [...new Set([...(plan.residualRules ?? []), ...ids])];
}
