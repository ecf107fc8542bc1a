import { expect, test } from "bun:test";
import { evaluateExpression } from "../../../src/engine/expression/evaluate-expression.ts";
import { countCompiles } from "../../support/compile-counter.ts";

/**
 * Variable reads compiled to JavaScript (generated-path-reader.ts): what they read is pinned by
 * the golden corpora, which run every case both ways; these pin when code is generated at all.
 * Paths are this file's own: compiled code is remembered for the whole test process.
 */
const env = { data: { readerTest: { lines: [{ qty: 2 }, { qty: 5 }] } } };

test("a path is compiled once, however many expressions read it", () => {
  const expression = {
    op: "add",
    args: [{ var: "data.readerTest.lines.1.qty" }, { var: "data.readerTest.lines.1.qty" }],
  };
  expect(countCompiles(() => expect(evaluateExpression(expression, env)).toBe(10))).toBe(1);
  expect(countCompiles(() => expect(evaluateExpression(expression, env)).toBe(10))).toBe(0);
});

test("a root read alone, or a root that does not exist, compiles nothing", () => {
  expect(countCompiles(() => expect(evaluateExpression({ var: "data" }, env)).toEqual(env.data))).toBe(0);
  expect(countCompiles(() => expect(evaluateExpression({ var: "nowhere.readerTest" }, env)).toBeNull())).toBe(0);
});

test("with code generation off, nothing is compiled and the reads are the same", () => {
  const expression = { var: "data.readerTest.lines.0.qty" };
  expect(countCompiles(() => expect(evaluateExpression(expression, env, { codeGeneration: false })).toBe(2))).toBe(0);
  expect(countCompiles(() => expect(evaluateExpression(expression, env)).toBe(2))).toBe(1);
});
