import { expect, test } from "bun:test";
import { readRulesetSource } from "../../../src/compiler/source/read-ruleset-source.ts";

/**
 * Reading a ruleset source turns `{expr: "<text>"}` into its tree at every place an expression
 * stands, and nowhere else: data in golden tests, metadata and extension members keep an `expr`
 * member as written.
 */
const TEXT = `ruleCascade: "1.0.0"
kind: RuleSet
metadata: { id: acme.text, version: 1.0.0, title: Text, x-note: { expr: "data.a" } }
functions:
  fee: { params: [amount], body: { expr: "arg.amount * 2" } }
rules:
  - id: r1
    kind: validation
    target: { entity: Order }
    operations: [create]
    when: { expr: "data.total > 0" }
    assert: { op: and, args: [{ expr: "data.total < 10" }, true] }
    finding: { code: ORD-A, message: m, args: { total: { expr: "data.total" } } }
  - id: r2
    kind: action
    target: { entity: Order }
    operations: [create]
    assign: [{ field: /fee, value: { expr: "fee(data.total)" } }]
    commands:
      - name: order.notify
        type: event
        payload: { total: { expr: "data.total + 1" } }
        idempotencyKey: [{ expr: "data.id" }, "fixed"]
tests:
  - name: data keeps its expr member
    request: { entity: Order, operation: create, data: { expr: "data.total > 0" } }
    expect: { decision: allow }
`;

const TREE = {
  when: { op: "gt", args: [{ var: "data.total" }, 0] },
  assert: { op: "and", args: [{ op: "lt", args: [{ var: "data.total" }, 10] }, true] },
  findingArgs: { total: { var: "data.total" } },
  assigned: { fn: "fee", args: [{ var: "data.total" }] },
  payload: { total: { op: "add", args: [{ var: "data.total" }, 1] } },
  idempotencyKey: [{ var: "data.id" }, "fixed"],
  body: { op: "mul", args: [{ var: "arg.amount" }, 2] },
};

test("every place an expression stands is read as its tree; other expr members are data", () => {
  const read = readRulesetSource(TEXT, "text.ruleset.yaml");
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const document = read.value as Record<string, any>;
  const [r1, r2] = document.rules;
  expect({
    when: r1.when,
    assert: r1.assert,
    findingArgs: r1.finding.args,
    assigned: r2.assign[0].value,
    payload: r2.commands[0].payload,
    idempotencyKey: r2.commands[0].idempotencyKey,
    body: document.functions.fee.body,
  }).toEqual(TREE);
  expect(document.metadata["x-note"]).toEqual({ expr: "data.a" });
  expect(document.tests[0].request.data).toEqual({ expr: "data.total > 0" });
});

test("a document that writes no text is left as it was read", () => {
  const plain = TEXT.replaceAll("expr", "note");
  const read = readRulesetSource(plain, "plain.ruleset.yaml");
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  expect((read.value as Record<string, any>).rules[0].when).toEqual({ note: "data.total > 0" });
});

test("a text that does not read refuses the file, and names the ruleset for the report", () => {
  const read = readRulesetSource(
    TEXT.replace('"data.total > 0" }\n    assert', '"data.total >> 0" }\n    assert'),
    "x.ruleset.yaml",
  );
  expect(read.ok).toBe(false);
  if (read.ok) return;
  expect(read.problems.map(({ code, line, column }) => ({ code, line, column }))).toEqual([
    { code: "EXPRESSION_TEXT_INVALID", line: 11, column: 32 },
  ]);
  expect((read.salvaged as Record<string, any>).metadata.id).toBe("acme.text");
});

test("a number in a text with more digits than a double keeps is a warning at its character, as elsewhere in the file", () => {
  const read = readRulesetSource(
    TEXT.replace('"data.total > 0" }', '"data.total > -9007199254740993" }'),
    "n.ruleset.yaml",
  );
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  expect(read.problems.map(({ code, line, column, message }) => ({ code, line, column, message }))).toEqual([
    {
      code: "NUMBER_NOT_PORTABLE",
      line: 11,
      column: 33,
      message: expect.stringContaining("the number -9007199254740993 is written with 16 significant digits"),
    },
  ]);
  expect((read.value as Record<string, any>).rules[0].when).toEqual({
    op: "gt",
    args: [{ var: "data.total" }, -9007199254740992],
  });
});
