import { expect, test } from "bun:test";
import { seededRandom } from "../../support/seeded-random.ts";
import { tokenize } from "../../../src/compiler/expression-text/expression-tokens.ts";
import { parseExpressionText } from "../../../src/compiler/expression-text/parse-expression-text.ts";
import { coreOperators } from "../../../src/engine/expression/operators/core-operators.ts";
import { VAR_ROOTS } from "../../../src/engine/expression/variable-roots.ts";
import { printExpressionText } from "../../../src/engine/expression-text/print-expression-text.ts";

/**
 * Printing then reading gives the tree back, for random trees of every core operator (with as
 * many arguments as it takes and with other counts), functions (one named like an operator),
 * custom operators, paths with members of every form, and literals at the edges of numbers and
 * strings; and the printed text has no parentheses it could do without.
 */
const OPERATORS = [...coreOperators.keys()];
const INFIX = ["and", "or", "not", "eq", "ne", "lt", "lte", "gt", "gte", "in", "add", "sub", "mul", "div", "mod"];
const FUNCTIONS = ["installment", "fee2", "max", "data"];
const CUSTOM = ["x-luhn", "x-test-sum"];
const MEMBERS = ["amount", "first-name", "0", "01", "12", "1st", "_x", "in", "true", "A9", "-"];
const NUMBERS = [
  0, -0, 1, -1, 1.5, -2.25, 0.1, 100, 1e21, -1e-7, 5e-324, 1.7976931348623157e308, 9007199254740992,
  0.30000000000000004,
];
const STRINGS = [
  "",
  "EUR",
  'say "hi"',
  "back\\slash",
  "line\nbreak\ttab",
  "\u0000\u001f",
  "é😀",
  "\ud800",
  "`x-luhn`",
  "(a && b)",
  "data.amount",
];

function tree(next: () => number, depth: number): unknown {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const leaf = depth <= 0 || next() < 0.3;
  if (leaf) {
    const kind = next();
    if (kind < 0.25) return pick(NUMBERS);
    if (kind < 0.4) return pick(STRINGS);
    if (kind < 0.5) return pick([true, false, null]);
    const members = Array.from({ length: Math.floor(next() * 4) }, () => pick(MEMBERS));
    return { var: [pick(VAR_ROOTS), ...members].join(".") };
  }
  // Half the nodes are operators written infix (or `!`), with the count they take: the nestings that need parentheses.
  if (next() < 0.5) {
    const op = pick(INFIX);
    const count = op === "not" ? 1 : op === "and" || op === "or" ? 2 + Math.floor(next() * 2) : 2;
    return { op, args: Array.from({ length: count }, () => tree(next, depth - 1)) };
  }
  // Otherwise mostly the count an operator takes, sometimes another one.
  const count = next() < 0.7 ? 1 + Math.floor(next() * 3) : Math.floor(next() * 5);
  const args = Array.from({ length: count }, () => tree(next, depth - 1));
  const kind = next();
  if (kind < 0.08) return { fn: pick(FUNCTIONS), args };
  if (kind < 0.12) return { op: pick(CUSTOM), args };
  return { op: pick(OPERATORS), args };
}

/** Trees equal member by member, -0 told from 0. */
function sameTree(a: unknown, b: unknown): boolean {
  const marked = (value: unknown) =>
    JSON.stringify(value, (_key, item) => (Object.is(item, -0) ? "-0 (the number)" : item));
  return marked(a) === marked(b);
}

/** The text with one pair of grouping parentheses taken out, for every pair it has. */
function withoutEachGroup(text: string): string[] {
  const tokens = tokenize(text);
  const variants: string[] = [];
  tokens.forEach((token, index) => {
    const before = tokens[index - 1];
    if (token.text !== "(" || token.kind !== "symbol" || before?.kind === "name" || before?.kind === "quoted-name")
      return;
    let depth = 0;
    for (const close of tokens.slice(index)) {
      if (close.kind === "symbol" && close.text === "(") depth++;
      if (close.kind === "symbol" && close.text === ")" && --depth === 0) {
        variants.push(text.slice(0, token.start) + text.slice(token.end, close.start) + text.slice(close.end));
        return;
      }
    }
  });
  return variants;
}

function readsAs(text: string): unknown {
  try {
    return parseExpressionText(text).tree;
  } catch {
    return undefined;
  }
}

test("every operator appears in the trees generated", () => {
  const seen = new Set<string>();
  const next = seededRandom(1);
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    const call = node as { op?: string; args?: unknown[] };
    if (call.op !== undefined) seen.add(call.op);
    call.args?.forEach(visit);
  };
  for (let index = 0; index < 3000; index++) visit(tree(next, 4));
  expect(OPERATORS.filter((op) => !seen.has(op))).toEqual([]);
});

test("printing random trees and reading the text back gives the same trees, with no parentheses to spare", () => {
  const next = seededRandom(20261128);
  let grouped = 0;
  for (let index = 0; index < 4000; index++) {
    const expression = tree(next, 4);
    const text = printExpressionText(expression);
    if (text === undefined) throw new Error(`not printed: ${JSON.stringify(expression)}`);
    const back = readsAs(text);
    if (!sameTree(back, expression))
      throw new Error(`${JSON.stringify(expression)}\nprinted ${text}\nread as ${JSON.stringify(back)}`);
    for (const variant of withoutEachGroup(text)) {
      grouped++;
      if (sameTree(readsAs(variant), expression))
        throw new Error(`${text}: the parentheses are not needed in ${variant}`);
    }
  }
  // The trees nest operators in ways that need parentheses.
  expect(grouped).toBeGreaterThan(500);
});

test("what text cannot hold is not printed: the caller keeps the tree", () => {
  for (const value of [
    { var: "data..x" },
    { var: "nowhere.x" },
    { op: "lte", args: [1, 2], extra: true },
    { op: "unknownOperator", args: [] },
    { fn: "my-function", args: [] },
    [1, 2],
    { expr: "data.a" },
    Number.NaN,
  ])
    expect(printExpressionText(value)).toBeUndefined();
  expect(printExpressionText({ op: "and", args: [{ var: "data.ok" }, { var: "x" }] })).toBeUndefined();
});
