import { expect, test } from "bun:test";
import type { WordedRule } from "../../../src/engine/explanation/explanation.ts";
import { wordsText } from "../../../src/engine/explanation/explanation-words.ts";
import { ruleWords, statusLabel } from "../../../src/engine/explanation/rule-status-wording.ts";
import type { ExplanationContext, RuleFacts } from "../../../src/engine/explanation/wording-context.ts";
import { explained, transfer } from "./example-transfer.ts";

test("each status of the example's rules says why: what it produced, that its assertion holds, its false condition, the test it failed", () => {
  const { said } = explained(transfer());
  expect(said("transfer.amount.limit")).toBe("its assertion failed, so it raised finding ACME-PAY-005");
  expect(said("transfer.amount.positive")).toBe("its assertion holds");
  expect(said("transfer.purpose-detail.required")).toBe(
    'its condition, data.purpose == "other", is false, so it did not run',
  );
  expect(said("transfer.update.locked-after-approval")).toBe("it runs on update, not on create");
  expect(said("transfer.fee.compute")).toBe("it computed /fee");
  expect(said("transfer.bic.show")).toBe("it set the state of /beneficiary/bic");
  // A rule run per bound field says which field its trees are of (which one is the engine's choice).
  expect(said("money.amount.valid")).toMatch(
    /^its assertion holds for every field of the type Money \(shown for \/\w+\)$/,
  );

  expect(explained(transfer({ trigger: "blur" })).said("transfer.amount.limit")).toBe("it runs on submit, not on blur");
  expect(explained(transfer({ view: { section: "schedule" } })).said("transfer.amount.limit")).toBe(
    "its place, transfers › new-transfer › amount, is outside the view",
  );
  const withoutClock = explained(transfer({ ctx: {} })).said("transfer.execution-date.default");
  expect(withoutClock).toEndWith(" (the rule fails closed)");
  expect(withoutClock.length).toBeGreaterThan(" (the rule fails closed)".length);
});

test("each explained rule carries as its summary the sentence the explorer shows: fired, passed, not selected by operation, failed closed", () => {
  const summaryOf = (evaluation: ReturnType<typeof explained>, id: string): string =>
    evaluation.result.explanation!.rules.find((entry) => entry.rule === id)!.summary;
  const large = explained(transfer());
  const withoutClock = explained(transfer({ ctx: {} }));
  const cases: [ReturnType<typeof explained>, string, string | RegExp][] = [
    [large, "transfer.amount.limit", "its assertion failed, so it raised finding ACME-PAY-005"],
    [large, "transfer.amount.positive", "its assertion holds"],
    [large, "transfer.update.locked-after-approval", "it runs on update, not on create"],
    [withoutClock, "transfer.execution-date.default", / \(the rule fails closed\)$/],
  ];
  for (const [evaluation, id, expected] of cases) {
    expect(summaryOf(evaluation, id)).toBe(evaluation.said(id));
    if (typeof expected === "string") expect(summaryOf(evaluation, id)).toBe(expected);
    else expect(summaryOf(evaluation, id)).toMatch(expected);
  }
  expect(
    withoutClock.result.explanation!.rules.find((entry) => entry.rule === "transfer.execution-date.default")!.status,
  ).toBe("error");
});

test("names are quoted as code, the rest is text", () => {
  const { result, context } = explained(transfer());
  const entry = result.explanation!.rules.find(
    (candidate) => candidate.rule === "transfer.update.locked-after-approval",
  )!;
  expect(ruleWords(entry, context)).toEqual(["it runs on ", { code: "update" }, ", not on ", { code: "create" }]);
});

const entry = (fields: Partial<WordedRule>): WordedRule => ({
  rule: "r",
  kind: "validation",
  status: "not-selected",
  ...fields,
});
const orderRule: RuleFacts = {
  id: "r",
  kind: "validation",
  target: { entity: "Order", page: "checkout" },
  operations: ["create", "update"],
  triggers: ["change"],
};
const full: ExplanationContext = {
  request: { entity: "Transfer", operation: "delete", trigger: "blur" },
  rules: new Map([["r", orderRule]]),
};
const said = (fields: Partial<WordedRule>, context: ExplanationContext = full): string =>
  wordsText(ruleWords(entry(fields), context));

test("each reason a rule was not selected, with the rule and the request, with one of them, and with neither", () => {
  const onlyRule: ExplanationContext = { rules: full.rules };
  const onlyRequest: ExplanationContext = { request: full.request };
  expect([full, onlyRule, onlyRequest, {}].map((context) => said({ because: "entity" }, context))).toEqual([
    "it is about Order, the request about Transfer",
    "it is about Order, not the request's entity",
    "it is about another entity than Transfer",
    "it is about another entity than the request's",
  ]);
  expect([full, onlyRule, onlyRequest, {}].map((context) => said({ because: "operation" }, context))).toEqual([
    "it runs on create or update, not on delete",
    "it runs on create or update, not on the request's operation",
    "it does not run on delete",
    "it does not run on the request's operation",
  ]);
  expect([full, onlyRule, onlyRequest, {}].map((context) => said({ because: "trigger" }, context))).toEqual([
    "it runs on change, not on blur",
    "it runs on change, not on the request's trigger",
    "it does not run on blur",
    "it does not run on the request's trigger",
  ]);
  expect([full, {}].map((context) => said({ because: "view" }, context))).toEqual([
    "its place, checkout, is outside the view",
    "its place is outside the request's view",
  ]);
  expect(said({ because: "disabled" }, {})).toBe("the rule is disabled");
  expect(said({ because: "channel" })).toBe("it does not run on this channel");
  expect(said({ kind: "action", because: "channel" })).toBe("actions run on the server only");
  expect(said({ because: "enforcement" })).toBe("it is enforced on the other channel only");
  expect(said({ kind: "action", because: "decision" })).toBe("actions run only when the decision is allow");
  expect(said({ kind: "x-ml-hint", because: "kind" }, {})).toBe("its kind, x-ml-hint, is an extension no runtime runs");
  // A reason a later engine may add is still said.
  expect(said({ because: "something-new" } as unknown as Partial<WordedRule>)).toBe(
    "the engine's reason is something-new",
  );
});

test("what passing and firing mean for each kind; without the result or the rule, what was produced is not named", () => {
  expect(said({ status: "passed", kind: "compute" })).toBe("it computed nothing: the field already has a value");
  expect(said({ status: "passed", kind: "state" })).toBe("it ran and produced nothing");
  expect(said({ status: "fired" }, {})).toBe("its assertion failed, so it raised a finding");
  expect(said({ status: "fired", kind: "compute" }, {})).toBe("it computed a value");
  expect(said({ status: "fired", kind: "state" }, {})).toBe("it set a state");
  expect(said({ status: "fired", kind: "action" }, {})).toBe("it sent its commands");
  const compute: RuleFacts = { ...orderRule, kind: "compute", assign: [{ field: "/fee" }, { field: "/total" }] };
  expect(said({ status: "fired", kind: "compute" }, { rules: new Map([["r", compute]]) })).toBe(
    "it computed /fee and /total",
  );
  expect(said({ status: "when-false" }, {})).toBe("its condition (when) is false, so it did not run");
  expect(said({ status: "error", message: "division by zero" }, {})).toBe("division by zero (the rule fails closed)");
  expect(said({ status: "error" }, {})).toBe("it could not be evaluated (the rule fails closed)");
});

test("status labels: the command line's column, the explorer's badge and the counts", () => {
  expect((["fired", "error", "passed", "when-false", "not-selected"] as const).map(statusLabel)).toEqual([
    "fired",
    "error",
    "passed",
    "when false",
    "not selected",
  ]);
});

test("a false condition is said as text: from its tree in a full explanation, else from the rule", () => {
  const when = {
    op: "and",
    args: [
      { op: "eq", args: [{ var: "data.urgent" }, true] },
      { op: "not", args: [{ var: "data.draft" }] },
    ],
  };
  const withCondition: ExplanationContext = { rules: new Map([["r", { ...orderRule, when }]]) };
  expect(said({ status: "when-false" }, withCondition)).toBe(
    "its condition, data.urgent == true && !data.draft, is false, so it did not run",
  );
  // A full explanation's tree carries the text already (the engine printed it once per plan).
  expect(said({ status: "when-false", when: { expr: when, text: "the tree's text", value: false } }, {})).toBe(
    "its condition, the tree's text, is false, so it did not run",
  );
  expect(ruleWords(entry({ status: "when-false" }), withCondition)).toEqual([
    "its condition, ",
    { code: "data.urgent == true && !data.draft" },
    ", is false, so it did not run",
  ]);
});
