import type { ComparisonOperator, PlanCondition, PlanScalar, PlanValueType } from "../engine/plan/plan-condition.ts";
import { FALSE, joined, keyword, type SqlFragment, sql, TRUE } from "./sql-fragment.ts";
import { checkedScalar } from "./translatable-text.ts";

/**
 * What a dialect writes for each leaf of a condition. Every fragment is TRUE or FALSE on every
 * row, never NULL, and atomic or in parentheses, so the walk can combine and negate them as is.
 */
export interface SqlLeaves {
  isNull(node: PlanCondition, pointer: string): SqlFragment;
  isType(node: PlanCondition, pointer: string, type: PlanValueType): SqlFragment;
  compareToConstant(node: PlanCondition, op: ComparisonOperator, pointer: string, value: PlanScalar): SqlFragment;
  compareToPointer(node: PlanCondition, op: ComparisonOperator, left: string, right: string): SqlFragment;
  isIn(node: PlanCondition, pointer: string, values: readonly PlanScalar[]): SqlFragment;
}

/** A condition as SQL: the shared walk over and/or/not; throws PlanNotTranslatableError. */
export function conditionSql(condition: PlanCondition, leaves: SqlLeaves): SqlFragment {
  switch (condition.op) {
    case "and":
    case "or": {
      if (condition.args.length === 0) return condition.op === "and" ? TRUE : FALSE;
      const args = condition.args.map((arg) => conditionSql(arg, leaves));
      return sql`(${joined(args, condition.op === "and" ? " AND " : " OR ")})`;
    }
    case "not":
      return sql`(NOT ${conditionSql(condition.arg, leaves)})`;
    case "isNull":
      return leaves.isNull(condition, condition.pointer);
    case "isType":
      return leaves.isType(condition, condition.pointer, condition.type);
    case "in":
      if (condition.values.length === 0) return FALSE;
      return leaves.isIn(
        condition,
        condition.pointer,
        condition.values.map((value) => checkedScalar(value, condition)),
      );
    default: {
      const right = condition.right;
      if ("pointer" in right)
        return leaves.compareToPointer(condition, condition.op, condition.left.pointer, right.pointer);
      return leaves.compareToConstant(
        condition,
        condition.op,
        condition.left.pointer,
        checkedScalar(right.value, condition),
      );
    }
  }
}

/** The SQL comparison operator of `lt`..`gte` (and `eq`). */
export const COMPARISON_SQL: Readonly<Record<ComparisonOperator, SqlFragment>> = {
  eq: keyword("="),
  lt: keyword("<"),
  lte: keyword("<="),
  gt: keyword(">"),
  gte: keyword(">="),
};

/** The constants of an `in` grouped by their type, so each group is compared under one type test. */
export function valuesByType(values: readonly PlanScalar[]): Map<"number" | "string" | "boolean", PlanScalar[]> {
  const groups = new Map<"number" | "string" | "boolean", PlanScalar[]>();
  for (const value of values) {
    const type = typeof value as "number" | "string" | "boolean";
    groups.set(type, [...(groups.get(type) ?? []), value]);
  }
  return groups;
}
