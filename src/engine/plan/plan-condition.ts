import type { JsonPrimitive } from "../value/json-value.ts";

/**
 * The condition of a plan: which `data` a decision would give what was wanted, as a tree over
 * JSON Pointers into `data` (RFC 6901, "" is `data` itself). Every node is true or false for every
 * `data`, never unknown, so `not` is plain negation and a translation to SQL must give no NULL.
 *
 * - `and`/`or` with two or more `args`, `not` with one `arg`.
 * - Comparisons `{op, left, right}`: `left` is `{pointer}`, `right` `{value}` (a string, number or
 *   boolean, never null) or `{pointer}`. A pointer that does not resolve reads as null.
 *   - `eq`: equal as evaluation compares (numbers numerically, lists and objects member by member,
 *     values of different types never; two nulls are equal, which only two pointers can show);
 *   - `lt`, `lte`, `gt`, `gte`: both sides are numbers and compare so (false otherwise).
 * - `{op: "in", pointer, values}`: the value at the pointer `eq`s one of `values` (two or more).
 * - `{op: "isNull", pointer}`: the pointer is missing or null.
 * - `{op: "isType", pointer, type}`: the value at the pointer is of that type (`typeOf`'s names,
 *   less `null`).
 * Constants never appear inside a tree: a plan whose condition would be constant has kind
 * `always` or `never` instead.
 */
export type PlanCondition =
  | { readonly op: "and" | "or"; readonly args: readonly PlanCondition[] }
  | { readonly op: "not"; readonly arg: PlanCondition }
  | {
      readonly op: ComparisonOperator;
      readonly left: { readonly pointer: string };
      readonly right: PlanOperand;
    }
  | { readonly op: "in"; readonly pointer: string; readonly values: readonly PlanScalar[] }
  | { readonly op: "isNull"; readonly pointer: string }
  | { readonly op: "isType"; readonly pointer: string; readonly type: PlanValueType };

export type ComparisonOperator = "eq" | "lt" | "lte" | "gt" | "gte";
export const COMPARISON_OPERATORS: readonly ComparisonOperator[] = ["eq", "lt", "lte", "gt", "gte"];

/** A constant in a condition: never null (a null test is `isNull`). */
export type PlanScalar = Exclude<JsonPrimitive, null>;

export type PlanOperand = { readonly pointer: string } | { readonly value: PlanScalar };

export type PlanValueType = "boolean" | "number" | "string" | "list" | "object";
export const PLAN_VALUE_TYPES: readonly PlanValueType[] = ["boolean", "number", "string", "list", "object"];
