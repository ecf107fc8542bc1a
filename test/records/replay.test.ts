import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ReplaySummary } from "../../src/records/replay/replay-summary.ts";
import { goldenTestRecords } from "../support/golden-test-records.ts";
import { PROJECT_ROOT, runCli } from "../support/run-cli.ts";

/**
 * `rule-server replay`: the records of every golden request of rules/ replayed against an
 * unchanged copy, a copy whose transfer limit was lowered (exact counts), and records that cannot
 * be replayed, counted by reason.
 */
const work = mkdtempSync(join(tmpdir(), "rule-server-replay-"));
const unchanged = join(work, "unchanged");
const lowered = join(work, "lowered");
const records = join(work, "records.jsonl");
let lines: string[];

beforeAll(() => {
  cpSync(join(PROJECT_ROOT, "rules"), unchanged, { recursive: true });
  cpSync(join(PROJECT_ROOT, "rules"), lowered, { recursive: true });
  // The transfer limit of both rulesets down to 1,000.
  const parent = join(lowered, "acme-payments.ruleset.yaml");
  writeFileSync(parent, readFileSync(parent, "utf8").replace("default: 100000", "default: 1000"));
  const child = join(lowered, "acme-payments-transfers.ruleset.yaml");
  writeFileSync(child, readFileSync(child, "utf8").replace("singleTransferLimit: 25000", "singleTransferLimit: 1000"));
  lines = goldenTestRecords(unchanged);
  writeFileSync(records, lines.join(""));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The JSON summary, with the changes as the command writes them. */
type Summary = Omit<ReplaySummary, "changes"> & {
  changes: (ReplaySummary["changes"][number] & { explained?: { rule: string; status: string }[] })[];
};
const replay = async (
  args: readonly string[],
  input = "",
): Promise<{ status: number; summary: Summary; stdout: string }> => {
  const run = await runCli(["replay", ...args], input);
  return {
    status: run.status,
    stdout: run.stdout,
    summary: args.includes("json") ? (JSON.parse(run.stdout) as Summary) : (undefined as never),
  };
};

test("against the rules the records were made with, every record replays unchanged", async () => {
  const { status, summary } = await replay(["--rules", unchanged, "--format", "json", records]);
  expect(status).toBe(0);
  expect(summary).toEqual({
    records: 19,
    logLines: 0,
    replayed: 19,
    unchanged: 19,
    allowToDeny: 0,
    denyToAllow: 0,
    changed: 0,
    unreplayable: {},
    rules: {},
    maskedInput: {},
    changes: [],
  });
});

describe("a lowered limit", () => {
  test("turns three allowed transfers into denials and adds the limit's finding to a fourth", async () => {
    const { summary } = await replay(["--rules", lowered, "--format", "json", records]);
    expect({ ...summary, changes: undefined }).toEqual({
      records: 19,
      logLines: 0,
      replayed: 19,
      unchanged: 15,
      allowToDeny: 3,
      denyToAllow: 0,
      changed: 4,
      unreplayable: {},
      rules: { "transfer.amount.limit": { nowFires: 4, noLongerFires: 0 } },
      maskedInput: {},
      changes: undefined,
    });
    expect(
      summary.changes.map((change) => [
        change.requestId,
        change.decision.before,
        change.decision.after,
        change.nowFires,
      ]),
    ).toEqual([
      ["acme.payments.transfers#0", "allow", "deny", ["transfer.amount.limit"]],
      ["acme.payments.transfers#2", "allow", "deny", ["transfer.amount.limit"]],
      ["acme.payments.transfers#5", "deny", "deny", ["transfer.amount.limit"]],
      ["acme.payments#0", "allow", "deny", ["transfer.amount.limit"]],
    ]);
  });

  test("--fail-on-change exits 1; --explain explains the rule that changed; --limit and --ruleset narrow it", async () => {
    expect((await replay(["--rules", lowered, "--fail-on-change", records])).status).toBe(1);
    expect((await replay(["--rules", unchanged, "--fail-on-change", records])).status).toBe(0);
    const explained = await replay(["--rules", lowered, "--explain", "--format", "json", records]);
    expect(explained.summary.changes[3]!.explained).toEqual([
      expect.objectContaining({ rule: "transfer.amount.limit", status: "fired" }),
    ]);
    expect((await replay(["--rules", lowered, "--limit", "5", "--format", "json", records])).summary.records).toBe(5);
    const onlyTransfers = await replay([
      "--rules",
      lowered,
      "--ruleset",
      "acme.payments.transfers",
      "--format",
      "json",
      records,
    ]);
    expect([onlyTransfers.summary.records, onlyTransfers.summary.allowToDeny]).toEqual([7, 2]);
    const text = await replay(["--rules", lowered, "--explain", records]);
    expect(text.stdout).toContain(
      "decisions allow -> deny 3, deny -> allow 0; findings, effects or commands changed 4",
    );
    expect(text.stdout).toContain("rule transfer.amount.limit: now fires in 4, no longer fires in 0");
    expect(text.stdout).toMatch(
      /line \d+ \(acme\.payments#0\) acme\.payments: allow -> deny {2}\+transfer\.amount\.limit\n {4}fired {2}transfer\.amount\.limit \(validation\)/,
    );
  });
});

test("records that cannot be replayed are counted by reason, from standard input too", async () => {
  const first = JSON.parse(lines[0]!) as Record<string, unknown> & { request: Record<string, unknown> };
  const maskedRecord = goldenTestRecords(unchanged, "/data/amount")[0]!;
  const input = [
    "not json at all",
    JSON.stringify({ ...first, ruleset: "acme.unknown" }),
    JSON.stringify({ ...first, request: { ...first.request, entity: 42 } }),
    maskedRecord.trimEnd(),
    lines[1]!.trimEnd(),
  ].join("\n");
  const { summary } = await replay(["--rules", lowered, "--format", "json", "-"], input);
  // The masked amount is read by rules of a ruleset that changed, and the rules that made the record are not given.
  expect(summary.unreplayable).toEqual({ malformed: 1, "ruleset-unknown": 1, "request-refused": 1, "masked-input": 1 });
  expect(summary.maskedInput["transfer.amount.limit"]).toEqual({
    records: 1,
    pointers: ["/data/amount"],
    because: ["recorded-rules-unknown"],
  });
  expect([summary.records, summary.replayed]).toEqual([5, 1]);
});

test("rules that do not load and a records file that cannot be read are reported, exit 2; a usage mistake is a usage error", async () => {
  const broken = join(work, "broken");
  cpSync(unchanged, broken, { recursive: true });
  writeFileSync(join(broken, "acme-payments.ruleset.yaml"), "ruleCascade: '1.0.0'\nkind: RuleSet\n");
  const run = await runCli(["replay", "--rules", broken, records]);
  expect(run.status).toBe(2);
  expect(run.stderr).toContain("acme-payments.ruleset.yaml:1:1: SCHEMA_INVALID");
  expect((await runCli(["replay", records])).stderr).toContain("replay: name the rules to replay against with --rules");
  expect((await runCli(["replay", "--rules", unchanged, "--limit", "x", records])).stderr).toContain(
    "--limit takes a whole number",
  );
  const missing = await runCli(["replay", "--rules", unchanged, join(work, "missing.jsonl")]);
  expect([missing.status, missing.stderr]).toEqual([
    2,
    `rule-server replay: FILE_UNREADABLE: cannot read the records file ${join(work, "missing.jsonl")}: no such file or directory (ENOENT)\n`,
  ]);
});
