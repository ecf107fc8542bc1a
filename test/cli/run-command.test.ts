import { expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HELP_TEXT } from "../../src/cli/help-text.ts";
import { runCli } from "../support/run-cli.ts";

/** `runCommand`: every command with the streams it is given, and how it ends. */
const SOURCE = "test/cases/interop/shop/shop-order.ruleset.yaml";
const BUNDLE = "test/cases/interop/shop/shop-order.bundle.json";
const ORDER = JSON.stringify({
  entity: "Order",
  operation: "create",
  data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
});

test("a usage error is status 2, its message and the help on stderr, nothing on stdout", async () => {
  const run = await runCli(["check", "--nope", SOURCE]);
  expect(run).toEqual({ status: 2, stdout: "", stderr: `rule-server: check: unknown option --nope\n\n${HELP_TEXT}` });
});

test("an error no command expects is status 1 with its message on stderr", async () => {
  const output = join(tmpdir(), "rule-server-no-such-directory", "out.bundle.json");
  const run = await runCli(["compile", SOURCE, "-o", output]);
  expect(run.status).toBe(1);
  expect(run.stdout).toBe("");
  expect(run.stderr).toStartWith("rule-server: ");
  expect(run.stderr).toContain(output);
});

test("no command writes to the process's own stdout or stderr, each writes to its io", async () => {
  const runs: [string[], string][] = [
    [["version"], ""],
    [["help"], ""],
    [["check", "--help"], ""],
    [["check", SOURCE], ""],
    [["check", "--format", "junit", join(tmpdir(), "rule-server-none.ruleset.yaml")], ""],
    [["test", SOURCE, "--coverage"], ""],
    [["compile", SOURCE], ""],
    [["manifest", SOURCE], ""],
    [["compile", join(tmpdir(), "rule-server-none.ruleset.yaml")], ""],
    [["schema"], ""],
    [["cron", "0 3 * * *", "--after", "2026-01-01T00:00:00Z"], ""],
    [["evaluate", BUNDLE, "-"], ORDER],
    [["evaluate", BUNDLE, "-", "--lines"], `${ORDER}\n{}\n`],
    [["engine"], '{"id":1,"command":"expression","expr":1}\n'],
    [["replay", "--rules", SOURCE, "-"], ""],
    [["frobnicate"], ""],
  ];
  const leaked: string[] = [];
  const stdoutWrite = process.stdout.write;
  const stderrWrite = process.stderr.write;
  const keep = ((chunk: unknown) => leaked.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stdout.write = keep;
  process.stderr.write = keep;
  const written: string[] = [];
  try {
    for (const [args, input] of runs) {
      const run = await runCli(args, input);
      written.push(run.stdout + run.stderr);
    }
  } finally {
    process.stdout.write = stdoutWrite;
    process.stderr.write = stderrWrite;
  }
  expect(leaked).toEqual([]);
  for (const [index, text] of written.entries())
    expect([runs[index]![0], text.length > 0]).toEqual([runs[index]![0], true]);
});
