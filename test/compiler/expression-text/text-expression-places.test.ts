import { expect, test } from "bun:test";
import { expressionSlots } from "../../../src/compiler/expression-text/translate-text-expressions.ts";
import { readRulesetSource } from "../../../src/compiler/source/read-ruleset-source.ts";

/**
 * Reading a source lists the expressions it wrote as text, by document path and the place of the
 * text's first character (what `check --portable` warns at), and `expressionSlots` lists where
 * expressions stand (what `fmt` rewrites).
 */
const YAML = `ruleCascade: "1.0.0"
kind: RuleSet
metadata: { id: acme.places, version: 1.0.0, title: Places }
functions:
  fee: { params: [amount], body: { expr: "arg.amount * 2" } }
rules:
  - id: r1
    kind: validation
    target: { entity: Order }
    operations: [create]
    when:
      expr: 'data.kind == "refund"'
    assert: { op: and, args: [{ expr: "data.total < 10" }, true] }
    finding: { code: ORD-A, message: m, args: { total: { var: data.total } } }
`;

/** The 1-based line and column where `written` starts in the YAML. */
function placeOf(written: string): { line: number; column: number } {
  const offset = YAML.indexOf(written);
  const before = YAML.slice(0, offset).split("\n");
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

test("each text read is listed with its path and the line and column of its first character", () => {
  const read = readRulesetSource(YAML, "places.ruleset.yaml");
  expect(read.ok).toBe(true);
  expect(read.textExpressions).toEqual([
    { path: ["rules", "0", "when"], ...placeOf(`data.kind == "refund"'`) },
    { path: ["rules", "0", "assert", "args", "0"], ...placeOf('data.total < 10"') },
    { path: ["functions", "fee", "body"], ...placeOf('arg.amount * 2"') },
  ]);
  // `    assert: { op: and, args: [{ expr: "` is 39 characters.
  expect(placeOf('data.total < 10"')).toEqual({ line: 13, column: 40 });
});

test("in JSON the place is inside the string's quotes too", () => {
  const json = JSON.stringify({
    ruleCascade: "1.0.0",
    kind: "RuleSet",
    metadata: { id: "acme.json", version: "1.0.0", title: "J" },
    rules: [
      { id: "r1", kind: "validation", target: { entity: "Order" }, operations: ["create"], when: { expr: "true" } },
    ],
  });
  const read = readRulesetSource(json, "places.ruleset.json");
  expect(read.textExpressions).toEqual([{ path: ["rules", "0", "when"], line: 1, column: json.indexOf('"true"') + 2 }]);
});

test("a source with no text lists none, and a refused source none", () => {
  const trees = YAML.replace(`when:\n      expr: 'data.kind == "refund"'`, "when: true")
    .replace('{ expr: "data.total < 10" }', "false")
    .replace('{ expr: "arg.amount * 2" }', "1");
  const read = readRulesetSource(trees, "a.yaml");
  expect([read.ok, read.textExpressions]).toEqual([true, []]);
  const refused = readRulesetSource(YAML.replace("arg.amount * 2", "arg.amount *"), "a.yaml");
  expect([refused.ok, refused.textExpressions]).toEqual([false, []]);
});

test("expression slots: each rule's expressions and each function's body, by path from the document", () => {
  const read = readRulesetSource(YAML, "places.ruleset.yaml");
  expect(read.ok && expressionSlots(read.value).map((slot) => slot.path.join("/"))).toEqual([
    "rules/0/when",
    "rules/0/assert",
    "rules/0/finding/args/total",
    "functions/fee/body",
  ]);
});
