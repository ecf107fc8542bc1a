import { expect, test } from "bun:test";
import { join } from "node:path";
import { PROJECT_ROOT, runCli } from "../support/run-cli.ts";

/** The example rulesets `make run` serves must pass every load check and their own golden tests. */
test("rule-server check rules/ passes", async () => {
  const run = await runCli(["check", "--json", join(PROJECT_ROOT, "rules")]);
  const report = JSON.parse(run.stdout);
  expect(report.files.flatMap((file: { problems: unknown[] }) => file.problems)).toEqual([]);
  expect(run.status).toBe(0);
  const rulesets = report.files.map((file: { ruleset: string }) => file.ruleset).sort();
  expect(rulesets).toEqual(["acme.customers.onboarding", "acme.payments", "acme.payments.transfers"]);
  expect(report.files.every((file: { tests: unknown[] }) => file.tests.length >= 3)).toBe(true);
});

/**
 * The examples write their expressions as text (`{ expr: "..." }`), as `fmt` writes them: a
 * rule author's first read. That their bundles are the ones the tree form gives is pinned by
 * test/formatting/corpus-round-trip.test.ts.
 */
test("rules/ writes every expression as text, as fmt writes it", async () => {
  const run = await runCli(["fmt", "--check", join(PROJECT_ROOT, "rules")]);
  expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: "" });
  const tree = await runCli(["fmt", "--check", "--expressions", "tree", join(PROJECT_ROOT, "rules")]);
  expect(tree.stdout.trim().split("\n").length).toBe(3);
});
