import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import { LoadedRuleset } from "../../src/engine/bundle/loaded-ruleset.ts";
import type { JsonObject } from "../../src/engine/value/json-value.ts";
import { decisionRecordJson, recordLine } from "../../src/records/decision-record.ts";
import { parseRecordMask } from "../../src/records/record-mask.ts";
import type { ReplaySummary } from "../../src/records/replay/replay-summary.ts";
import { PROJECT_ROOT, runCli } from "../support/run-cli.ts";

/**
 * Replay of records whose debtor IBAN was masked (RULE_SERVER_DECISION_MASK=/data/debtor/iban):
 * 120 transfers of 500 to 30,250 EUR, every tenth with a debtor IBAN the rules refuse. The
 * type-targeted rule iban.format and the rules that pass `data` whole to a function read the masked
 * member; the replay never evaluates "***" as an IBAN.
 */
const work = mkdtempSync(join(tmpdir(), "rule-server-masked-replay-"));
const unchanged = join(work, "unchanged");
const lowered = join(work, "lowered");
const ibanChanged = join(work, "iban-changed");
const records = join(work, "records.jsonl");
const AMOUNTS = Array.from({ length: 120 }, (_, index) => 500 + 250 * index);
const refusedIban = (index: number): boolean => index % 10 === 3;

function transfer(amount: number, index: number): JsonObject {
  return {
    ruleset: "acme.payments.transfers",
    entity: "Transfer",
    operation: "create",
    data: {
      id: `TRF-${300000 + index}`,
      amount,
      reference: `Invoice ${index}`,
      debtor: {
        name: "Jana Novak",
        iban: refusedIban(index) ? "de89 3704 0044 0532 0130 00" : "DE89370400440532013000",
        country: "DE",
      },
      beneficiary:
        index % 2 === 0
          ? { name: "Holzbau Keller KG", iban: "DE75512108001245126199", country: "DE" }
          : { name: "Autohaus Berger", iban: "AT611904300234573201", country: "AT" },
    },
    actor: { id: "c-58213", roles: ["customer"] },
    ctx: { now: "2026-03-02T09:30:00Z" },
  };
}

beforeAll(() => {
  for (const copy of [unchanged, lowered, ibanChanged]) cpSync(join(PROJECT_ROOT, "rules"), copy, { recursive: true });
  const child = join(lowered, "acme-payments-transfers.ruleset.yaml");
  writeFileSync(child, readFileSync(child, "utf8").replace("singleTransferLimit: 25000", "singleTransferLimit: 20000"));
  // iban.format now takes lower case too: a changed rule that reads the masked member.
  const parent = join(ibanChanged, "acme-payments.ruleset.yaml");
  writeFileSync(
    parent,
    readFileSync(parent, "utf8").replace(
      '"^[A-Z]{2}\\\\d{2}[A-Z0-9]{11,30}$"',
      '"^[A-Za-z]{2}\\\\d{2}[A-Za-z0-9]{11,30}$"',
    ),
  );
  expect(readFileSync(parent, "utf8")).toContain("[A-Za-z]{2}");
  const compilation = compileSourceFile(join(unchanged, "acme-payments-transfers.ruleset.yaml"));
  if (!compilation.ok) throw new Error("the example does not compile");
  const ruleset = LoadedRuleset.fromBundle(compilation.compiled.bundle);
  const mask = parseRecordMask("/data/debtor/iban");
  const lines = AMOUNTS.map((amount, index) => {
    const request = transfer(amount, index);
    const result = ruleset.evaluate(request, "server");
    return recordLine(
      "2026-11-27T00:00:00.000Z",
      `amount-${amount}`,
      decisionRecordJson(request, result, "server", mask),
    );
  });
  writeFileSync(records, lines.join(""));
  // The records were made as described: the bad IBANs were refused, and the mask was applied.
  const written = lines.map((line) => JSON.parse(line));
  expect(
    written.filter((record) => record.findings.some((finding: JsonObject) => finding.rule === "iban.format")).length,
  ).toBe(12);
  expect(
    written.every((record) => record.request.data.debtor.iban === "***" && record.masked[0] === "/data/debtor/iban"),
  ).toBe(true);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const replay = async (args: readonly string[], input = ""): Promise<ReplaySummary> => {
  const run = await runCli(["replay", ...args, "--format", "json", ...(input === "" ? [records] : ["-"])], input);
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as ReplaySummary;
};

test("against the unchanged rules no record changes: a masked IBAN is never evaluated as an IBAN", async () => {
  const summary = await replay(["--rules", unchanged]);
  expect(summary).toEqual({
    records: 120,
    logLines: 0,
    replayed: 120,
    unchanged: 120,
    allowToDeny: 0,
    denyToAllow: 0,
    changed: 0,
    unreplayable: {},
    rules: {},
    maskedInput: {},
    changes: [],
  });
});

test("against a lowered limit, exactly the transfers of more than 20,000 and at most 25,000 EUR change", async () => {
  const summary = await replay(["--rules", lowered, "--recorded-rules", unchanged]);
  const turned = AMOUNTS.filter((amount) => amount > 20000 && amount <= 25000);
  expect(summary.changes.map((change) => change.requestId)).toEqual(turned.map((amount) => `amount-${amount}`));
  expect(
    summary.changes.every(
      (change) => change.nowFires.join() === "transfer.amount.limit" && change.noLongerFires.length === 0,
    ),
  ).toBe(true);
  // Those with a refused IBAN were denied already: the limit's finding is added, the decision stays.
  const alreadyDenied = turned.filter((amount) => refusedIban(AMOUNTS.indexOf(amount))).length;
  expect(alreadyDenied).toBeGreaterThan(0);
  expect({ ...summary, changes: [] }).toEqual({
    records: 120,
    logLines: 0,
    replayed: 120,
    unchanged: 120 - turned.length,
    allowToDeny: turned.length - alreadyDenied,
    denyToAllow: 0,
    changed: turned.length,
    unreplayable: {},
    rules: { "transfer.amount.limit": { nowFires: turned.length, noLongerFires: 0 } },
    maskedInput: {},
    changes: [],
  });
});

test("without the rules that made the records, records whose rules read the masked member are not replayed, and the rule and pointer are named", async () => {
  const summary = await replay(["--rules", lowered]);
  expect([summary.records, summary.replayed, summary.unreplayable]).toEqual([120, 0, { "masked-input": 120 }]);
  expect(summary.maskedInput["iban.format"]).toEqual({
    records: 120,
    pointers: ["/data/debtor/iban"],
    because: ["recorded-rules-unknown"],
  });
  const text = await runCli(["replay", "--rules", lowered, records]);
  expect(text.stdout).toContain("not replayed: masked-input 120");
  expect(text.stdout).toContain(
    "masked input: rule iban.format reads masked /data/debtor/iban in 120: the rules that made the record are not known (give them with --recorded-rules)",
  );
});

test("a changed rule that reads the masked member cannot keep its outcome: those records are not replayed, counted by rule", async () => {
  const summary = await replay(["--rules", ibanChanged, "--recorded-rules", unchanged]);
  expect([summary.records, summary.replayed, summary.unreplayable]).toEqual([120, 0, { "masked-input": 120 }]);
  expect(summary.maskedInput).toEqual({
    "iban.format": { records: 120, pointers: ["/data/debtor/iban"], because: ["rule-changed"] },
  });
});

test("records written to standard output among log lines: the log lines are skipped, not counted as malformed", async () => {
  const logLine = (msg: string): string =>
    JSON.stringify({ time: "2026-11-27T00:00:00.000Z", level: "info", msg, pid: 1 });
  const lines = readFileSync(records, "utf8").trimEnd().split("\n");
  const stream = [
    logLine("listening"),
    ...lines.flatMap((line, index) => (index % 10 === 0 ? [line, logLine("request")] : [line])),
    JSON.stringify({ time: "x", level: "warn", msg: "draining" }),
  ].join("\n");
  const summary = await replay(["--rules", unchanged], stream);
  expect([summary.records, summary.logLines, summary.replayed, summary.unchanged, summary.unreplayable]).toEqual([
    120,
    14,
    120,
    120,
    {},
  ]);
});
