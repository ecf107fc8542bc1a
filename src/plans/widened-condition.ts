import type { Condition } from "../engine/plan/condition-algebra.ts";
import { and, or } from "../engine/plan/condition-algebra.ts";
import type { PlanCondition } from "../engine/plan/plan-condition.ts";

/**
 * A plan's condition (negations on its leaves, as plans give it) with one node made true: every
 * row it held for it still holds for, and more. A leaf under a `not` is replaced with its `not`,
 * so the result never shrinks. A query that cannot express a node is run over this instead, and
 * the application evaluates the rest.
 */
export function widenedCondition(condition: PlanCondition, node: PlanCondition): Condition {
  if (condition === node || (condition.op === "not" && condition.arg === node)) return true;
  if (condition.op === "and" || condition.op === "or") {
    const args = condition.args.map((arg) => widenedCondition(arg, node));
    return condition.op === "and" ? and(...args) : or(...args);
  }
  return condition;
}
