import { expect, test } from "bun:test";
import { join } from "node:path";
import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import { LoadedRuleset } from "../../src/engine/bundle/loaded-ruleset.ts";
import type { JsonObject } from "../../src/engine/value/json-value.ts";
import { decisionRecordJson, recordLine } from "../../src/records/decision-record.ts";
import { parseRecordMask } from "../../src/records/record-mask.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/** A decision record's text: the request as received without a mask, serialized again with one. */
const compilation = compileSourceFile(join(PROJECT_ROOT, "rules", "acme-payments-transfers.ruleset.yaml"));
if (!compilation.ok) throw new Error("the rules/ example does not compile");
const ruleset = LoadedRuleset.fromBundle(compilation.compiled.bundle);
const NO_MASK = parseRecordMask("");

/** The record line of `text` evaluated on the `server` channel, and the line read back. */
function record(
  text: string,
  mask = NO_MASK,
  channel: "server" | "client" = "server",
): { line: string; read: Record<string, any> } {
  const request = JSON.parse(text) as JsonObject;
  const line = recordLine(
    "2026-11-26T00:00:00.000Z",
    "id-1",
    decisionRecordJson(request, ruleset.evaluate(request, channel), channel, mask, text),
  );
  return { line, read: JSON.parse(line) };
}

const body = (data: string, actor = `{"id":"u-1","roles":["treasury-manager"]}`) =>
  `{"ruleset":"acme.payments.transfers","entity":"Transfer","operation":"create","data":${data},"actor":${actor},"ctx":{"now":"2026-03-02T09:30:00Z"}}`;
const DATA = `{"id":"T-1","amount":1250.50,"reference":"caf\\u00e9","debtor":{"iban":"DE89370400440532013000","country":"DE"},"beneficiary":{"iban":"AT611904300234573201","country":"AT"}}`;

test("without a mask the record holds the request as received: numbers as written, escapes as sent", () => {
  const text = body(DATA);
  const { line, read } = record(text);
  expect(line).toContain(`"request":${text},"decision":`);
  expect(read.request).toEqual(JSON.parse(text));
  expect(Object.keys(read)).toEqual([
    "time",
    "level",
    "msg",
    "requestId",
    "ruleset",
    "version",
    "checksum",
    "channel",
    "request",
    "decision",
    "findings",
    "effects",
    "commands",
  ]);
});

test("a record reads as a log line: `level` info and `msg` decision right after `time`", () => {
  const { line, read } = record(body(DATA));
  expect(line).toStartWith(`{"time":"2026-11-26T00:00:00.000Z","level":"info","msg":"decision","requestId":"id-1",`);
  expect([read.level, read.msg]).toEqual(["info", "decision"]);
});

test("a body written over many lines is one record line, and reads back as the same request", () => {
  const text = JSON.stringify(JSON.parse(body(DATA)), null, 2).replace(/\n/g, "\r\n");
  const { line, read } = record(text);
  expect(line.indexOf("\n")).toBe(line.length - 1);
  expect(line).not.toContain("\r");
  expect(read.request).toEqual(JSON.parse(text));
});

test("an item of a batch (no text of its own) is serialized", () => {
  const request = JSON.parse(body(DATA)) as JsonObject;
  const json = decisionRecordJson(request, ruleset.evaluate(request, "server"), "server", NO_MASK);
  expect(JSON.parse(`{${json}`).request).toEqual(JSON.parse(body(DATA)));
});

test("with a mask the masked request is serialized, and a member given twice leaks neither value", () => {
  const mask = parseRecordMask("/data/debtor/iban,/actor/id");
  const twice = body(
    DATA.replace(`"debtor":{"iban"`, `"debtor":{"iban":"SECRET-FIRST","iban"`),
    `{"id":"SECRET-ACTOR","roles":["clerk"]},"actor":{"roles":["treasury-manager"]}`,
  );
  const { line, read } = record(twice, mask);
  expect(line).not.toContain("SECRET");
  expect(line).not.toContain("DE89370400440532013000");
  expect(read.request.data.debtor.iban).toBe("***");
  // The actor as read has no id (the later member wins): nothing to list, and the earlier one is not in the record.
  expect(read.masked).toEqual(["/data/debtor/iban"]);
  expect(read.request.actor).toEqual({ roles: ["treasury-manager"] });
});

test("the members before the request follow the ruleset version and channel of each record", () => {
  const client = record(body(DATA), NO_MASK, "client").read;
  const server = record(body(DATA), NO_MASK, "server").read;
  expect([client.channel, server.channel]).toEqual(["client", "server"]);
  expect(server.checksum).toBe(ruleset.checksum);
  // The same rules as another version: what a server holding two versions evaluates in turn.
  const bundleText = JSON.stringify(compilation.compiled.bundle)
    .replaceAll(ruleset.checksum, `sha256:${"0".repeat(64)}`)
    .replaceAll(`"version":"${ruleset.version}"`, `"version":"9.9.9"`);
  const other = LoadedRuleset.fromBundle(JSON.parse(bundleText));
  const request = JSON.parse(body(DATA)) as JsonObject;
  const read = JSON.parse(
    `{${decisionRecordJson(request, other.evaluate(request, "server"), "server", NO_MASK, body(DATA))}`,
  );
  expect([read.version, read.checksum]).toEqual(["9.9.9", `sha256:${"0".repeat(64)}`]);
  expect(record(body(DATA)).read.version).toBe(ruleset.version);
});

test("the outcome is written out as JSON of the result: findings' rule and code, effects' field and rule, command names of any JSON value, in order", () => {
  const request = JSON.parse(body(DATA)) as JsonObject;
  const evaluated = ruleset.evaluate(request, "server");
  // Strings that need escaping, and command names that are not strings, as a rule may compute them.
  const result = {
    ...evaluated,
    findings: [
      { ...evaluated.findings[0]!, rule: 'rule "quoted" \\ one', code: "CODE-1" },
      { ...evaluated.findings[0]!, rule: "rule.two", code: "CODE-\u2028" },
    ],
    effects: [{ type: "value" as const, field: "/fee", value: 1, rule: "fee\ncompute" }],
    commands: [
      { name: "transfer.submitted", type: "event", rule: "r", idempotencyKey: "k", payload: {} },
      { name: { kind: "nested", n: [1, 2] }, type: "event", rule: "r", idempotencyKey: "k", payload: {} },
      { name: 7, type: "event", rule: "r", idempotencyKey: "k", payload: {} },
    ],
  };
  for (const mask of [NO_MASK, parseRecordMask("/actor/id")]) {
    const read = JSON.parse(`{${decisionRecordJson(structuredClone(request), result, "server", mask, body(DATA))}`);
    expect(read.decision).toBe(evaluated.decision);
    expect(read.findings).toEqual([
      { rule: 'rule "quoted" \\ one', code: "CODE-1" },
      { rule: "rule.two", code: "CODE-\u2028" },
    ]);
    expect(read.effects).toEqual([{ field: "/fee", rule: "fee\ncompute" }]);
    expect(read.commands).toEqual(["transfer.submitted", { kind: "nested", n: [1, 2] }, 7]);
    expect(read.masked).toEqual(mask === NO_MASK ? undefined : ["/actor/id"]);
  }
  // Nothing found, nothing done: empty lists, not missing members.
  const none = JSON.parse(
    `{${decisionRecordJson(request, { ...evaluated, findings: [], effects: [], commands: [] }, "server", NO_MASK)}`,
  );
  expect([none.findings, none.effects, none.commands]).toEqual([[], [], []]);
});
