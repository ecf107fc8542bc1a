import { afterAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import { checkRuleFiles, ruleFilesNamed } from "../../src/workspace/rule-file-checks.ts";
import { customOperatorsFrom } from "../../src/engine/expression/custom-operators.ts";
import { loadSnapshot, SnapshotError } from "../../src/server/snapshot/rules-snapshot.ts";
import { PROJECT_ROOT, runCli } from "../support/run-cli.ts";

/**
 * `check` says what the server will do about a rules directory as a whole: a copy of rules/ with a
 * bundle beside the source of the same ruleset, a cache policy naming a ruleset the directory does
 * not define, one with a mode there is not, two cache policies. Each is refused by the server's
 * loader and failed by `check` with the same problems on the same files; rules/ passes both.
 */
const work = mkdtempSync(join(tmpdir(), "rule-server-directory-problems-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const operators = customOperatorsFrom(undefined);

function rulesCopy(name: string, files: Record<string, string>): string {
  const directory = join(work, name);
  cpSync(join(PROJECT_ROOT, "rules"), directory, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(directory, file), text);
  return directory;
}

/** The server's problems: code, file and message, in the loader's order. */
function serverProblems(directory: string): string[] {
  try {
    loadSnapshot(directory, operators);
    return [];
  } catch (error) {
    if (!(error instanceof SnapshotError)) throw error;
    return error.problems.map(
      (problem) => `${problem.code} ${problem.file === undefined ? "-" : basename(problem.file)}: ${problem.message}`,
    );
  }
}

function checkProblems(directory: string): string[] {
  const reports = checkRuleFiles(ruleFilesNamed([directory]), {
    operators,
    runTests: () => [],
    directories: [directory],
  });
  return reports.flatMap((report) =>
    report.problems.map((problem) => `${problem.code} ${basename(problem.file ?? report.file)}: ${problem.message}`),
  );
}

const payments = compileSourceFile(join(PROJECT_ROOT, "rules", "acme-payments.ruleset.yaml"));
if (!payments.ok) throw new Error("the example does not compile");
const DIRECTORIES: Record<string, Record<string, string>> = {
  "a bundle beside the source of its ruleset": {
    "acme-payments.bundle.json": JSON.stringify(payments.compiled.bundle),
  },
  "a cache policy naming a ruleset the directory does not define": {
    "cache-policy.yaml": "rulesets:\n  acme.payment: { mode: permanent }\n",
  },
  "a cache policy with an unknown mode": { "cache-policy.yaml": "default: { mode: forever }\n" },
  "two cache policies": {
    "cache-policy.yaml": "default: { mode: revalidate }\n",
    "cache-policy.json": '{"default": {"mode": "permanent"}}',
  },
};

for (const [name, files] of Object.entries(DIRECTORIES)) {
  test(`${name}: the server refuses it, and check fails with the same problems`, () => {
    const directory = rulesCopy(name.replaceAll(" ", "-"), files);
    const refused = serverProblems(directory);
    expect(refused.length).toBeGreaterThan(0);
    expect(checkProblems(directory).sort()).toEqual(refused.sort());
  });
}

test("the example rules/: the server loads it, and check finds nothing", () => {
  expect(serverProblems(join(PROJECT_ROOT, "rules"))).toEqual([]);
  expect(checkProblems(join(PROJECT_ROOT, "rules"))).toEqual([]);
});

test("rule-server check fails on a bundle beside its source, naming the bundle and the source", async () => {
  const directory = rulesCopy("cli-duplicate", DIRECTORIES["a bundle beside the source of its ruleset"]!);
  const run = await runCli(["check", directory]);
  expect(run.status).toBe(1);
  expect(run.stdout).toContain(
    "acme-payments.bundle.json:1:1: RULESET_DUPLICATE ruleset acme.payments is also defined by acme-payments.ruleset.yaml",
  );
  expect(run.stdout).toContain("FAILED:");
});
