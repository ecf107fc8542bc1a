import { expect, test } from "bun:test";
import { and, not, or, withNegationsOnLeaves } from "../../../src/engine/plan/condition-algebra.ts";
import type { PlanCondition } from "../../../src/engine/plan/plan-condition.ts";

/** What a plan's condition is simplified to as it is built: the tree a user reads and a query runs. */
const a: PlanCondition = { op: "isNull", pointer: "/a" };
const b: PlanCondition = { op: "isNull", pointer: "/b" };
const over: PlanCondition = { op: "gte", left: { pointer: "/n" }, right: { value: 5 } };
const number: PlanCondition = { op: "isType", pointer: "/n", type: "number" };
const isX: PlanCondition = { op: "eq", left: { pointer: "/s" }, right: { value: "x" } };
const string: PlanCondition = { op: "isType", pointer: "/s", type: "string" };

test("constants fold away, nested and/or flatten, a branch written twice is kept once", () => {
  expect(and(a, true)).toEqual(a);
  expect(and(a, false)).toBe(false);
  expect(or(a, true)).toBe(true);
  expect(or()).toBe(false);
  expect(and(a, and(b, a))).toEqual({ op: "and", args: [a, b] });
  expect(not(not(a))).toEqual(a);
});

test("a branch beside its negation decides: x and not x is false, x or not x is true", () => {
  expect(and(a, not(a), b)).toBe(false);
  expect(or(b, not(a), a)).toBe(true);
});

test("a sibling absorbs its negation inside the other kind: a or (not a and b) is a or b", () => {
  expect(or(a, and(not(a), b))).toEqual({ op: "or", args: [a, b] });
  expect(and(a, or(not(a), b))).toEqual({ op: "and", args: [a, b] });
});

test("of two leaves where one implies the other, and keeps the stronger and or the weaker", () => {
  expect(and(number, over)).toEqual(over);
  expect(or(over, number)).toEqual(number);
  expect(or(over, and(number, not(over)))).toEqual(number);
  expect(and(string, isX)).toEqual(isX);
  // A comparison with a number says nothing of strings.
  expect(and(string, over)).toEqual({ op: "and", args: [string, over] });
});

test("negations move down onto the leaves (De Morgan)", () => {
  const expected: PlanCondition = {
    op: "or",
    args: [
      { op: "not", arg: a },
      { op: "and", args: [{ op: "not", arg: b }, over] },
    ],
  };
  expect(withNegationsOnLeaves(not(and(a, or(b, not(over)))))).toEqual(expected);
});
