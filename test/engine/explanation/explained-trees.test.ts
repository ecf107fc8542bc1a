import { expect, test } from "bun:test";
import { explainedTrees } from "../../../src/engine/explanation/explained-trees.ts";
import type { ExplainedNode, RuleExplanation } from "../../../src/engine/explanation/explanation.ts";
import { explained, transfer } from "./example-transfer.ts";

const node: ExplainedNode = { expr: true, text: "true", value: true };

test("a rule's trees in reading order, labelled for people, each with its pointer in the entry", () => {
  const entry: RuleExplanation = {
    rule: "r",
    kind: "action",
    status: "fired",
    summary: "it sent its commands",
    when: node,
    assign: [node, node],
    args: { amount: node, "a/b": node },
    commands: [{ idempotencyKey: [node], payload: { to: node } }],
  };
  expect(explainedTrees(entry).map(({ label, pointer }) => `${label} ${pointer}`)).toEqual([
    "when /when",
    "assign 1 /assign/0",
    "assign 2 /assign/1",
    "message argument {amount} /args/amount",
    "message argument {a/b} /args/a~1b",
    "command 1, idempotency key part 1 /commands/0/idempotencyKey/0",
    "command 1, payload to /commands/0/payload/to",
  ]);
});

test("an assignment is labelled by its field where the rule is known", () => {
  const { result, context } = explained(transfer());
  const fee = result.explanation!.rules.find((entry) => entry.rule === "transfer.fee.compute")!;
  expect(explainedTrees(fee, context).map((tree) => tree.label)).toContain("assign /fee");
  const limit = result.explanation!.rules.find((entry) => entry.rule === "transfer.amount.limit")!;
  expect(explainedTrees(limit, context).map((tree) => tree.label)).toEqual([
    "when",
    "assert",
    "message argument {amount}",
    "message argument {currency}",
    "message argument {limit}",
  ]);
});
