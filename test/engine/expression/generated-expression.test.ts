import { expect, test } from "bun:test";
import { evaluateExpression } from "../../../src/engine/expression/evaluate-expression.ts";
import { countCompiles } from "../../support/compile-counter.ts";

/**
 * Expressions compiled to JavaScript (generated-expression.ts). The golden corpora run every case
 * both ways and pin values and error codes; these pin when code is generated, and that an error
 * names what the closures name (the first argument that fails, in order), which `detail` shows.
 * Expressions are this file's own: compiled code is remembered for the whole test process.
 */
const env = { data: { expressionTest: { amount: 12, count: 3, name: "x" } }, params: { expressionTestLimit: 10 } };

test("an expression of logic and comparisons compiles once, with its paths; the same expression again compiles nothing", () => {
  const expression = {
    op: "and",
    args: [
      { op: "exists", args: [{ var: "data.expressionTest.name" }] },
      { op: "gt", args: [{ var: "data.expressionTest.amount" }, { var: "params.expressionTestLimit" }] },
    ],
  };
  expect(countCompiles(() => expect(evaluateExpression(expression, env)).toBe(true))).toBe(4);
  expect(countCompiles(() => expect(evaluateExpression(expression, env)).toBe(true))).toBe(0);
  expect(
    countCompiles(() =>
      expect(evaluateExpression(structuredClone(expression), env, { codeGeneration: false })).toBe(true),
    ),
  ).toBe(0);
});

test("an expression without logic or comparisons (arithmetic, a literal) compiles only its paths; one with them below the root compiles", () => {
  expect(
    countCompiles(() =>
      expect(evaluateExpression({ op: "add", args: [{ var: "data.expressionTest.count" }, 1] }, env)).toBe(4),
    ),
  ).toBe(1);
  expect(countCompiles(() => expect(evaluateExpression("literal", env)).toBe("literal"))).toBe(0);
  expect(
    countCompiles(() =>
      expect(evaluateExpression({ op: "mul", args: [{ op: "if", args: [true, 2, 3] }, 4] }, env)).toBe(8),
    ),
  ).toBe(1);
});

const failing = [
  {
    op: "eq",
    args: [
      { op: "div", args: [1, 0] },
      { op: "nope", args: [] },
    ],
  },
  {
    op: "ne",
    args: [
      { op: "nope", args: [] },
      { op: "div", args: [1, 0] },
    ],
  },
  { op: "lte", args: ["a", { op: "div", args: [1, 0] }] },
  { op: "gte", args: [{ op: "div", args: [1, 0] }, "a"] },
  { op: "and", args: [true, 1, { op: "nope", args: [] }] },
  { op: "or", args: [false, { op: "not", args: ["x"] }] },
  { op: "if", args: [{ op: "typeOf", args: [{ op: "nope", args: [] }] }, 1, 2] },
  { op: "coalesce", args: [null, { op: "add", args: ["a", 1] }] },
  {
    op: "exists",
    args: [
      {
        op: "sum",
        args: [
          { op: "list", args: [1] },
          { op: "nope", args: [] },
        ],
      },
    ],
  },
];

test("an expression that fails reports the error the closures report", () => {
  const messageOf = (expression: unknown, codeGeneration: boolean): string => {
    try {
      return `no error: ${JSON.stringify(evaluateExpression(expression, env, { codeGeneration }))}`;
    } catch (error) {
      return (error as Error).message;
    }
  };
  for (const expression of failing) {
    const closures = messageOf(expression, false);
    expect(closures).not.toStartWith("no error");
    expect(messageOf(expression, true)).toBe(closures);
  }
});
