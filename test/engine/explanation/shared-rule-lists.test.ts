import { expect, test } from "bun:test";
import { join } from "node:path";
import { compileSourceFile } from "../../../src/workspace/compile-source-file.ts";
import { LoadedRuleset } from "../../../src/engine/bundle/loaded-ruleset.ts";
import type { JsonObject } from "../../../src/engine/value/json-value.ts";
import { rule } from "../../support/order-rule.ts";

/**
 * `rules` explanations copy the list of an earlier request with the same outcome
 * (RuleListCache): whatever order requests come in, each explanation is the one a ruleset that
 * never explained anything before gives.
 */
const compilation = compileSourceFile(
  join(import.meta.dir, "..", "..", "..", "rules", "acme-payments-transfers.ruleset.yaml"),
);
if (!compilation.ok) throw new Error("the rules/ example does not compile");
const bundle = compilation.compiled.bundle;

const base: JsonObject = {
  entity: "Transfer",
  operation: "create",
  data: {
    id: "TRF-1",
    amount: 300,
    reference: "Machine parts",
    debtor: { iban: "DE89370400440532013000", country: "DE" },
    beneficiary: { iban: "AT611904300234573201", country: "AT" },
  },
  actor: { id: "u-1", roles: ["treasury-manager"] },
  ctx: { now: "2026-03-02T09:30:00Z" },
};
const withData = (data: JsonObject, extra: JsonObject = {}): JsonObject => ({
  ...base,
  ...extra,
  data: { ...(base.data as JsonObject), ...data },
});
// More outcomes than the cache keeps for one entity and operation, so lists are also replaced.
const REQUESTS: JsonObject[] = [
  base,
  withData({ amount: 30000 }),
  withData({ amount: -5 }),
  withData({ amount: 0 }),
  withData({ reference: "" }),
  withData({ reference: undefined as never }),
  withData({ currency: "EUR" }),
  withData({ urgent: true }),
  withData({ purpose: "other" }),
  withData({ purpose: "other", purposeDetail: "x" }),
  withData({ executionDate: "2026-03-01" }),
  withData({ executionDate: "2026-03-07" }),
  withData({ beneficiary: { iban: "AT611904300234573201", country: "IR" } }),
  withData({ invoices: [{ number: "INV-1", amount: 100 }] }),
  withData({
    invoices: [
      { number: "x", amount: 5 },
      { number: "INV-2", amount: -1 },
    ],
  }),
  withData({ amount: "lots" }),
  withData({}, { operation: "update" }),
  withData({}, { operation: "approve" }),
  withData({}, { operation: "submit" }),
  withData({}, { entity: "Transfre" }),
  withData({}, { resolutions: [{ rule: "transfer.amount.limit", type: "acknowledge" }] }),
];

function coldExplanation(request: JsonObject): unknown {
  return LoadedRuleset.fromBundle(bundle).evaluate(request, "server", { explain: "rules" }).explanation;
}

test("explanations of many requests, in any order, are those of a ruleset that explains each for the first time", () => {
  const expected = REQUESTS.map(coldExplanation);
  const distinct = new Set(expected.map((explanation) => JSON.stringify(explanation)));
  expect(distinct.size).toBeGreaterThan(12);
  const ruleset = LoadedRuleset.fromBundle(bundle);
  for (let round = 0; round < 4; round++) {
    // A different order each round: forward, backward, odd positions first, then every third.
    const order = REQUESTS.map((_, index) => index);
    if (round === 1) order.reverse();
    if (round === 2) order.sort((a, b) => (a % 2) - (b % 2) || a - b);
    if (round === 3) order.sort((a, b) => (a % 3) - (b % 3) || b - a);
    for (const index of order)
      expect(ruleset.evaluate(REQUESTS[index]!, "server", { explain: "rules" }).explanation).toEqual(
        expected[index] as never,
      );
  }
});

test("each explanation has a list of its own: one holder sorting or emptying it changes no other", () => {
  const ruleset = LoadedRuleset.fromBundle(bundle);
  const first = ruleset.evaluate(base, "server", { explain: "rules" }).explanation!;
  const expected = JSON.stringify(first.rules);
  first.rules.sort((a, b) => b.rule.localeCompare(a.rule));
  first.rules.length = 0;
  const second = ruleset.evaluate(base, "server", { explain: "rules" }).explanation!;
  expect(second.rules).not.toBe(first.rules);
  expect(JSON.stringify(second.rules)).toBe(expected);
  second.rules.push(second.rules[0]!);
  expect(JSON.stringify(ruleset.evaluate(base, "server", { explain: "rules" }).explanation!.rules)).toBe(expected);
  // The entries are shared by the lists, and frozen.
  expect(Object.isFrozen(second.rules[0])).toBe(true);
});

test("in rules mode a rule run per item names the first item that fired, as full mode does", () => {
  const ruleset = LoadedRuleset.fromBundle(bundle);
  const request = withData({
    invoices: [
      { number: "x", amount: 5 },
      { number: "INV-2", amount: 5 },
    ],
  });
  const entry = (mode: "rules" | "full") =>
    ruleset
      .evaluate(request, "server", { explain: mode })
      .explanation!.rules.find((rule) => rule.rule === "transfer.invoice.number")!;
  expect(entry("rules")).toEqual({
    rule: "transfer.invoice.number",
    kind: "validation",
    status: "fired",
    field: "/invoices/0",
    summary: "its assertion failed, so it raised finding ACME-PAY-102 (shown for /invoices/0)",
  });
  expect(entry("full").field).toBe("/invoices/0");
});

test("a compute or state rule's summary names the fields it wrote in each request, also when its list came from the cache", () => {
  const manifest: JsonObject = {
    ruleCascade: "1.0.0",
    id: "t.written",
    version: "1.0.0",
    checksum: `sha256:${"0".repeat(64)}`,
    channel: "server",
    rules: [
      rule("c.defaults", "compute", {
        assign: [
          { field: "/currency", value: "EUR", mode: "default" },
          { field: "/country", value: "DE", mode: "default" },
        ],
      }),
      rule("s.show", "state", {
        effects: [
          { field: "/a", set: { visible: true } },
          { field: "/b", set: { visible: true } },
        ],
      }),
    ],
  };
  const ruleset = LoadedRuleset.fromManifest(manifest);
  const summaries = (data: JsonObject): string[] =>
    ruleset
      .evaluate({ entity: "Order", operation: "create", data }, "server", { explain: "rules" })
      .explanation!.rules.map((entry) => entry.summary);
  // The same rule states each time (both rules fired), other fields written: each request three times, so lists are kept.
  for (let round = 0; round < 3; round++) {
    expect(summaries({})).toEqual(["it computed /currency and /country", "it set the state of /a and /b"]);
    expect(summaries({ currency: "USD" })).toEqual(["it computed /country", "it set the state of /a and /b"]);
    expect(summaries({ country: "FR" })).toEqual(["it computed /currency", "it set the state of /a and /b"]);
  }
});
