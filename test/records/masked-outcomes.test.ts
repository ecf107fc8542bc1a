import { expect, test } from "bun:test";
import { LoadedRuleset } from "../../src/engine/bundle/loaded-ruleset.ts";
import { customOperatorsFrom } from "../../src/engine/expression/custom-operators.ts";
import type { JsonObject } from "../../src/engine/value/json-value.ts";
import { decisionRecordJson, recordLine } from "../../src/records/decision-record.ts";
import { parseRecordMask } from "../../src/records/record-mask.ts";
import { MaskedReplay } from "../../src/records/replay/masked-replay.ts";
import { replayLine } from "../../src/records/replay/record-replay.ts";
import { emptySummary, type ReplaySummary } from "../../src/records/replay/replay-summary.ts";
import { rule } from "../support/order-rule.ts";

/**
 * Records whose `/data/price` was masked, replayed: the rules that read the price (directly, or the
 * total computed from it) keep their recorded outcome — fired, quiet or failed closed — while they
 * and what they read are unchanged; a changed rule, a changed computation, a changed param and an
 * action the record cannot speak for each leave the record unreplayed, named.
 */
const validation = (id: string, assert: JsonObject): JsonObject =>
  rule(id, "validation", { severity: "error", finding: { code: id.toUpperCase(), message: "m" }, assert });
const RULES: JsonObject[] = [
  rule("c.total", "compute", {
    assign: [{ field: "/total", value: { op: "mul", args: [{ var: "data.price" }, { var: "data.qty" }] } }],
  }),
  validation("v.total", { op: "lte", args: [{ var: "data.total" }, { var: "params.limit" }] }),
  validation("v.price", { op: "gt", args: [{ var: "data.price" }, 0] }),
  validation("v.name", { op: "exists", args: [{ var: "data.name" }] }),
  rule("a.notify", "action", {
    when: { op: "gt", args: [{ var: "data.price" }, 100] },
    commands: [{ name: "notify", type: "event", idempotencyKey: [{ var: "data.name" }], payload: {} }],
  }),
];
let serial = 0;
function ruleset(change: (rules: JsonObject[], params: JsonObject) => void = () => {}): LoadedRuleset {
  const rules = structuredClone(RULES);
  const params: JsonObject = { limit: 1000 };
  change(rules, params);
  const checksum = `sha256:${String(++serial).padStart(64, "0")}`;
  return LoadedRuleset.fromManifest({
    ruleCascade: "1.0.0",
    id: "t.orders",
    version: "1.0.0",
    checksum,
    channel: "server",
    params,
    fieldTypes: {},
    functions: {},
    operators: [],
    messages: { en: { m: "m" } },
    rules,
  });
}
const made = ruleset();
const mask = parseRecordMask("/data/price");
const record = (data: JsonObject): string => {
  const request: JsonObject = { ruleset: "t.orders", entity: "Order", operation: "create", data };
  return recordLine(
    "2026-11-27T00:00:00.000Z",
    JSON.stringify(data),
    decisionRecordJson(request, made.evaluate(request, "server"), "server", mask),
  );
};
const RECORDS = [
  record({ name: "cheap", price: 5, qty: 2 }), // allowed, nothing fires
  record({ name: "dear", price: 500, qty: 1 }), // allowed, notify sent
  record({ name: "bulk", price: 50, qty: 100 }), // v.total fires: denied
  record({ name: "free", price: 0, qty: 1 }), // v.price fires: denied
  record({ name: "text", price: "abc", qty: 1 }), // c.total, v.total and v.price fail closed: denied
  record({ price: 500, qty: 1 }), // v.name fires: denied, so notify never ran
];
function replayAll(against: LoadedRuleset, lines = RECORDS): ReplaySummary {
  const summary = emptySummary();
  const options = {
    rulesets: new Map([["t.orders", against]]),
    masked: new MaskedReplay(customOperatorsFrom(undefined), new Map([[made.checksum, made]])),
  };
  lines.forEach((line, index) => replayLine(line.trimEnd(), index + 1, options, summary));
  return summary;
}

test("the records are what the comments say", () => {
  expect(
    RECORDS.map((line) => JSON.parse(line)).map((r) => [
      r.decision,
      r.findings.map((f: JsonObject) => `${f.rule}:${f.code}`).join(" "),
      r.commands.join(),
    ]),
  ).toEqual([
    ["allow", "", ""],
    ["allow", "", "notify"],
    ["deny", "v.total:V.TOTAL", ""],
    ["deny", "v.price:V.PRICE", ""],
    ["deny", "c.total:RULE-EVALUATION-ERROR v.total:RULE-EVALUATION-ERROR v.price:RULE-EVALUATION-ERROR", ""],
    ["deny", "v.name:V.NAME", ""],
  ]);
});

test("against the rules that made them, every record keeps its outcome: fired, quiet, failed closed, commands sent", () => {
  for (const against of [made, ruleset()]) {
    const summary = replayAll(against);
    expect([summary.records, summary.replayed, summary.unchanged, summary.unreplayable, summary.changes]).toEqual([
      6,
      6,
      6,
      {},
      [],
    ]);
  }
});

test("a change no masked reader depends on is replayed: v.name removed turns the nameless order around", () => {
  // Its notify is the action's to say, and the record was denied: the action's outcome is not recorded.
  const summary = replayAll(ruleset((rules) => rules.splice(3, 1)));
  expect([summary.replayed, summary.unchanged, summary.unreplayable]).toEqual([5, 5, { "masked-input": 1 }]);
  expect(summary.maskedInput).toEqual({
    "a.notify": { records: 1, pointers: ["/data/price"], because: ["outcome-not-recorded"] },
  });
});

test("a changed param of a rule that reads a computed masked value: the rule changed", () => {
  const summary = replayAll(ruleset((_rules, params) => (params.limit = 10)));
  expect([summary.replayed, summary.unreplayable]).toEqual([0, { "masked-input": 6 }]);
  expect(summary.maskedInput).toEqual({
    "v.total": { records: 6, pointers: ["/data/total (computed by c.total)"], because: ["rule-changed"] },
  });
});

test("a changed computation: it and every rule reading what it computes are named", () => {
  const summary = replayAll(
    ruleset((rules) => (rules[0]!.assign = [{ field: "/total", value: { var: "data.price" } }])),
  );
  expect(summary.unreplayable).toEqual({ "masked-input": 6 });
  expect(summary.maskedInput).toEqual({
    "c.total": { records: 6, pointers: ["/data/price"], because: ["rule-changed"] },
    "v.total": { records: 6, pointers: ["/data/total (computed by c.total)"], because: ["input-changed"] },
  });
});

test("wording and origin are not a change", () => {
  const summary = replayAll(
    ruleset((rules) => rules.forEach((entry) => Object.assign(entry, { origin: "t@2", title: "new words" }))),
  );
  expect([summary.replayed, summary.unchanged]).toEqual([6, 6]);
});
