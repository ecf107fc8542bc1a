import { expect, test } from "bun:test";
import type { EvaluationResult } from "../../../src/engine/evaluation/evaluation-result.ts";
import { explanationText, ruleLines } from "../../../src/engine/explanation/explanation-text.ts";
import type { RuleExplanation } from "../../../src/engine/explanation/explanation.ts";
import { exampleRules, explained, transfer } from "./example-transfer.ts";

/** The command line's text: the words of the *-wording.ts files, laid out as lines. */
test("given the request and the rules, the text names what a rule asks and what the request gave", () => {
  const request = transfer({
    trigger: "blur",
    actor: { id: "u-1", roles: [] },
    resolutions: [{ rule: "transfer.amount.limit", type: "acknowledge" }],
  });
  const { result } = explained(request);
  const lines = explanationText(result, { request, rules: exampleRules }).split("\n");
  expect(lines[0]).toBe("acme.payments.transfers 1.1.0: allow (no finding blocks)");
  expect(lines).toContain(
    "resolution acknowledge of transfer.amount.limit, not applied: the rule produced no finding, so there is nothing to resolve",
  );
  expect(lines.find((line) => line.includes(" transfer.amount.limit "))).toBe(
    "not selected  transfer.amount.limit (validation): it runs on submit, not on blur",
  );
  expect(lines).toContainEqual(expect.stringMatching(/^\d+ rules: \d+ passed, .*\d+ not selected$/));
});

test("without them, the same words less precise, but a rule's summary, which the engine said knowing both; a misspelt name is a sentence of its own", () => {
  const request = transfer({ operation: "creat" });
  const { result } = explained(request);
  const lines = explanationText(result).split("\n");
  expect(lines).toContain("No rule of the request's entity runs on the operation creat: did you mean create?");
  expect(explanationText(result, { request }).split("\n")).toContain(
    "No rule of Transfer runs on the operation creat: did you mean create?",
  );
  expect(lines.find((line) => line.includes(" transfer.amount.limit "))).toBe(
    "not selected  transfer.amount.limit (validation): it runs on create or update, not on creat",
  );
});

test("a tree, one node a line: the node's text, its value after →, a node never evaluated, an error, a cut value, the item a body is shown for, the deciding leaf; a literal's value is not repeated", () => {
  const entry: RuleExplanation = {
    rule: "r",
    kind: "validation",
    status: "error",
    message: "division by zero",
    summary: "division by zero (the rule fails closed)",
    because: ["/assert/args/1"],
    assert: {
      expr: { op: "and", args: [] },
      text: 'a / 0 > 1 && data.note && all(data.items, item.ok) && f() && "EUR"',
      value: false,
      args: [
        { expr: { op: "div", args: [] }, text: "a / 0 > 1", error: "division by zero" },
        { expr: { var: "data.note" }, text: "data.note", value: "x".repeat(200), truncated: true },
        { expr: { op: "all", args: [] }, text: "all(data.items, item.ok)", value: false, item: 2 },
        { expr: { fn: "f", args: [] }, text: "f()", skipped: true },
        { expr: "EUR", text: '"EUR"', value: "EUR" },
      ],
    },
  };
  expect(ruleLines(entry)).toEqual([
    "error  r (validation): division by zero (the rule fails closed)",
    "    assert:",
    '      a / 0 > 1 && data.note && all(data.items, item.ok) && f() && "EUR" → false',
    "        a / 0 > 1 (error: division by zero)",
    `        data.note → "${"x".repeat(118)}… (cut)   <- decided`,
    "        all(data.items, item.ok) → false (its body is shown for item 2)",
    "        f() (not evaluated)",
    '        "EUR"',
  ]);
});

test("a rule's line says the summary the engine gave it", () => {
  const request = transfer();
  const { result } = explained(request);
  const lines = explanationText(result, { request, rules: exampleRules }).split("\n");
  for (const entry of result.explanation!.rules)
    expect(lines.find((line) => line.includes(` ${entry.rule} (`))).toEndWith(`: ${entry.summary}`);
  expect(lines).toContain(
    'when false    transfer.purpose-detail.required (validation): its condition, data.purpose == "other", is false, so it did not run',
  );
});

test("warnings, findings, effects and commands come before the explanation", () => {
  const result: EvaluationResult = {
    ruleset: "t",
    version: "1",
    checksum: "sha256:0",
    decision: "allow",
    findings: [],
    effects: [{ type: "state", field: "/a", set: { visible: true }, rule: "s" }],
    commands: [{ name: "notify", type: "event", rule: "c", idempotencyKey: "k", payload: {} }],
    blocking: false,
    resolution: "none",
    warnings: [{ code: "DATA_INVALID", pointer: "/data/x", message: "not a number", didYouMean: "y" }],
  };
  expect(explanationText(result)).toBe(
    [
      "t 1: allow (no finding blocks)",
      '  warning DATA_INVALID /data/x: not a number: did you mean "y"?',
      '  effect /a {"visible":true} from s',
      "  command notify from c",
      "",
    ].join("\n"),
  );
});
