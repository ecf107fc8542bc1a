import { expect, test } from "bun:test";
import { isLiteral, nodeOutcome } from "../../../src/engine/explanation/node-wording.ts";

test("literals are told from expressions: their value is themselves, so readers do not repeat it", () => {
  expect([isLiteral("a"), isLiteral(1), isLiteral(true), isLiteral(null)]).toEqual([true, true, true, true]);
  expect([isLiteral({ var: "a" }), isLiteral({ op: "list", args: [] }), isLiteral([1])]).toEqual([false, false, false]);
});

test("what a node came to: its value, that it was never evaluated, or its error", () => {
  expect(nodeOutcome({ expr: { var: "a" }, text: "a", value: "x".repeat(200), truncated: true })).toEqual({
    kind: "value",
    text: `"${"x".repeat(118)}…`,
    cut: true,
  });
  expect(nodeOutcome({ expr: 1, text: "1", skipped: true })).toEqual({ kind: "skipped", text: "not evaluated" });
  expect(nodeOutcome({ expr: 1, text: "1", error: "too deep" })).toEqual({ kind: "error", text: "error: too deep" });
});
