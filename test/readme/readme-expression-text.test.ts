import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { parseExpressionText } from "../../src/compiler/expression-text/parse-expression-text.ts";
import { INFIX_BY_OP } from "../../src/engine/expression-text/expression-notation.ts";
import { coreOperators } from "../../src/engine/expression/operators/core-operators.ts";
import { VAR_ROOTS } from "../../src/engine/expression/variable-roots.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * The README's "Expressions written as text" and docs/expression-text.ebnf say what the parser
 * reads: every core operator is in the table, each operator's text example reads as it, the
 * example rule reads, and the grammar names the parser's roots and comparators.
 */
const README = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
const start = README.indexOf("\n## Expressions written as text\n");
const SECTION = README.slice(start, README.indexOf("\n## ", start + 1));
const GRAMMAR = readFileSync(join(PROJECT_ROOT, "docs", "expression-text.ebnf"), "utf8");

/** The table's rows: the code spans of the tree column and of the text column. */
function tableRows(): { trees: string[]; texts: string[] }[] {
  const spans = (cell: string) =>
    [...cell.matchAll(/``? ?(.+?) ?``?/g)].map((match) => match[1]!.replaceAll("\\|", "|"));
  return SECTION.split("\n")
    .filter((line) => line.startsWith("| `") || line.startsWith("| literals"))
    .map((line) => {
      const [, tree, text] = line.split(/(?<!\\)\|/);
      return { trees: spans(tree!), texts: spans(text!) };
    });
}

/** `a`, `b`, `c` in the table stand for any expression: read here as data paths. */
function withPaths(text: string): string {
  return text.replace(/(?<![\w."])([abc])(?![\w"])/g, "data.$1");
}

test("every core operator is in the table", () => {
  const named = new Set(tableRows().flatMap((row) => row.trees.flatMap((tree) => tree.split(/[ ,:{}[\]]+/))));
  expect([...coreOperators.keys()].filter((op) => !named.has(op))).toEqual([]);
});

test("each operator written infix reads as the operator its row names", () => {
  let read = 0;
  for (const { trees, texts } of tableRows()) {
    if (trees.length !== texts.length || !trees.every((tree) => INFIX_BY_OP.has(tree))) continue;
    trees.forEach((op, index) => {
      expect([op, (parseExpressionText(withPaths(texts[index]!)).tree as { op: string }).op]).toEqual([op, op]);
      read++;
    });
  }
  expect(read).toBe(11);
});

test("the section's example rule and call examples read", () => {
  const yaml = /```yaml\n([\s\S]*?)```/.exec(SECTION)![1]!;
  const members = parse(yaml) as Record<string, { expr: string }>;
  for (const member of Object.values(members)) expect(() => parseExpressionText(member.expr)).not.toThrow();
  for (const example of [
    "round(data.amount * 1.2, 2)",
    "all(data.items, item.qty > 0)",
    "if(data.vip, 0, data.fee)",
    "`x-luhn`(data.card)",
    'data.items[0]["first-name"]',
  ])
    expect(SECTION).toContain(example);
});

test("the grammar names the roots and the comparators the parser reads", () => {
  const roots = /root\s*=([^;]*);/
    .exec(GRAMMAR)![1]!
    .match(/"([a-z]+)"/g)!
    .map((quoted) => quoted.slice(1, -1));
  expect(roots).toEqual([...VAR_ROOTS]);
  const comparators = /comparator\s*=([^;]*);/
    .exec(GRAMMAR)![1]!
    .match(/"([^"]+)"/g)!
    .map((quoted) => quoted.slice(1, -1));
  const comparisons = [...INFIX_BY_OP.values()].filter((infix) => infix.precedence === 3).map((infix) => infix.symbol);
  expect(comparators.sort()).toEqual(comparisons.sort());
});
