import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { goldenJsonFiles, CASES_DIR } from "../support/golden-files.ts";
import { LspClient, PROJECT_ROOT, type PublishedDiagnostic } from "../support/lsp-client.ts";
import { runCli } from "../support/run-cli.ts";

/**
 * The editor sees exactly what `check` reports: for every case of the located-problems,
 * check-warnings and golden-test-names corpora, and for the fixtures check is tested with, the diagnostics a real
 * `rule-server lsp` publishes for each file equal `check --format json`'s problems, warnings and
 * failed golden tests of that file: code, message, line, column and suggestion, member for member.
 */
interface Comparable {
  code: string;
  message: string;
  line: number;
  column: number;
  severity: "error" | "warning";
  didYouMean?: string;
}

interface CheckJson {
  files: {
    file: string;
    problems: { code: string; message: string; file?: string; line?: number; column?: number }[];
    warnings: { code: string; message: string; file?: string; line?: number; column?: number; didYouMean?: string }[];
    tests: { name: string; failures: string[]; line?: number; column?: number }[];
  }[];
}

const suggestionIn = (message: string): string | undefined => /did you mean `([^`]+)`\?/.exec(message)?.[1];
const byPlace = (a: Comparable, b: Comparable): number =>
  a.line - b.line || a.column - b.column || a.code.localeCompare(b.code) || a.message.localeCompare(b.message);

/** What check says of each file of a directory, as the editor should show it. */
async function checkByFile(directory: string): Promise<Map<string, Comparable[]>> {
  const run = await runCli(["check", directory, "--format", "json"]);
  const report = JSON.parse(run.stdout) as CheckJson;
  const byFile = new Map<string, Comparable[]>();
  const seen = new Set<string>();
  const add = (file: string, entry: Comparable): void => {
    const key = `${file}|${JSON.stringify(entry)}`;
    if (seen.has(key)) return;
    seen.add(key);
    byFile.set(file, [...(byFile.get(file) ?? []), entry]);
  };
  for (const entry of report.files) {
    byFile.set(entry.file, byFile.get(entry.file) ?? []);
    for (const problem of entry.problems) {
      const didYouMean = suggestionIn(problem.message);
      add(problem.file ?? entry.file, {
        code: problem.code,
        message: problem.message,
        line: problem.line ?? 1,
        column: problem.column ?? 1,
        severity: problem.code === "NUMBER_NOT_PORTABLE" ? "warning" : "error",
        ...(didYouMean === undefined ? {} : { didYouMean }),
      });
    }
    for (const warning of entry.warnings) {
      const didYouMean = warning.didYouMean ?? suggestionIn(warning.message);
      add(warning.file ?? entry.file, {
        code: warning.code,
        message: warning.message,
        line: warning.line ?? 1,
        column: warning.column ?? 1,
        severity: "warning",
        ...(didYouMean === undefined ? {} : { didYouMean }),
      });
    }
    for (const failed of entry.tests.filter((outcome) => outcome.failures.length > 0)) {
      add(entry.file, {
        code: "GOLDEN_TEST_FAILED",
        message: `golden test "${failed.name}" failed: ${failed.failures.join("; ")}`,
        line: failed.line ?? 1,
        column: failed.column ?? 1,
        severity: "error",
      });
    }
  }
  for (const [file, list] of byFile) byFile.set(file, list.sort(byPlace));
  return byFile;
}

function comparable(diagnostic: PublishedDiagnostic): Comparable {
  // A failed test's diagnostic goes on with the diff and the explanation: its first line is check's failure.
  const message = diagnostic.code === "GOLDEN_TEST_FAILED" ? diagnostic.message.split("\n")[0]! : diagnostic.message;
  return {
    code: String(diagnostic.code),
    message,
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    severity: diagnostic.severity === 2 ? "warning" : "error",
    ...(diagnostic.data?.didYouMean === undefined ? {} : { didYouMean: diagnostic.data.didYouMean }),
  };
}

/** Opens every ruleset source of the directory in the language server and compares each file's diagnostics with check's. */
async function expectSameAsCheck(client: LspClient, directory: string): Promise<number> {
  const expected = await checkByFile(directory);
  // Every file an author may open: ruleset sources, bundles and entity schemas.
  const sources = readdirSync(directory).filter((name) => /\.(ya?ml|json)$/.test(name));
  for (const name of sources)
    client.open(
      Bun.pathToFileURL(join(directory, name)).href,
      await Bun.file(join(directory, name)).text(),
      name.endsWith(".json") ? "json" : "yaml",
    );
  // Answered after every open was handled: the diagnostics of the opens have all been sent before it.
  await client.request("workspace/symbol", { query: "" });
  let compared = 0;
  for (const [file, wanted] of expected) {
    const published = (client.latestDiagnostics(Bun.pathToFileURL(file).href) ?? []).map(comparable).sort(byPlace);
    expect({ file, diagnostics: published }).toEqual({ file, diagnostics: wanted });
    compared += wanted.length;
  }
  for (const name of sources)
    client.notify("textDocument/didClose", { textDocument: { uri: Bun.pathToFileURL(join(directory, name)).href } });
  return compared;
}

let client: LspClient;
const work = mkdtempSync(join(tmpdir(), "rule-server-lsp-check-"));
beforeAll(async () => {
  client = new LspClient();
  await client.initialize(work);
});
afterAll(async () => {
  await client.shutdown();
  rmSync(work, { recursive: true, force: true });
});

let caseNumber = 0;
let comparedInCorpora = 0;
for (const corpus of ["located-problems", "check-warnings", "golden-test-names"]) {
  describe(corpus, () => {
    for (const file of goldenJsonFiles(corpus)) {
      for (const c of (file.content as { cases: { name: string; files: Record<string, string> }[] }).cases) {
        test(`${file.name}: ${c.name}`, async () => {
          const directory = join(work, `case-${++caseNumber}`);
          mkdirSync(directory, { recursive: true });
          for (const [name, text] of Object.entries(c.files)) writeFileSync(join(directory, name), text);
          comparedInCorpora += await expectSameAsCheck(client, directory);
        });
      }
    }
  });
}

test("the corpora gave diagnostics to compare", () => expect(comparedInCorpora).toBeGreaterThan(30));

describe("fixtures check is tested with", () => {
  for (const [name, source] of [
    ["the rules/ example", join(PROJECT_ROOT, "rules")],
    ["the server rules", join(CASES_DIR, "server-rules")],
    ["the coverage fixture, one golden test broken", join(CASES_DIR, "coverage", "rules")],
  ] as const) {
    test(name, async () => {
      const directory = join(work, `fixture-${++caseNumber}`);
      cpSync(source, directory, { recursive: true });
      if (name.includes("broken")) {
        const file = join(directory, "base.ruleset.yaml");
        writeFileSync(file, (await Bun.file(file).text()).replace("decision: deny", "decision: allow"));
      }
      const compared = await expectSameAsCheck(client, directory);
      if (name.includes("broken")) expect(compared).toBe(1);
    });
  }
});
