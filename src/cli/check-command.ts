import { readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { runGoldenTests, type GoldenTestOutcome } from "../compiler/golden/run-golden-tests.ts";
import { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import { LoadError, type LoadProblem } from "../engine/bundle/load-problem.ts";
import { conformanceOperators } from "../engine/conformance-operators.ts";
import { customOperatorsFrom } from "../engine/expression/custom-operators.ts";
import { objectAt } from "../engine/value/json-access.ts";
import { parseJson } from "../engine/value/parse-json.ts";
import { ruleFileKind } from "../rule-files/rule-file-kind.ts";
import { ruleFilesOf } from "../rule-files/rule-files-of-directory.ts";
import { isDirectory, repeatedIdProblems } from "../rule-files/source-documents.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { compileSourceFile, formatProblem, readRulesDirectory, type RulesDirectory } from "./compile-source-file.ts";
import { UsageError } from "./usage-error.ts";

interface FileReport {
  file: string;
  ruleset?: string;
  problems: LoadProblem[];
  tests: GoldenTestOutcome[];
}

/**
 * `rule-server check <file|dir>... [--json]`: every load check of the named rulesets (and of the
 * rulesets and bundles in the named directories) and their golden tests, run with the conformance
 * operators registered. Exit status 1 on any problem or failed test, for CI.
 */
export function runCheckCommand(args: readonly string[]): number {
  const parsed = parseCommandArguments("check", args, { flags: ["--json"] });
  if (parsed.positional.length === 0) throw new UsageError("check: name at least one ruleset file or directory");
  const files: string[] = [];
  for (const target of parsed.positional) {
    if (isDirectory(target)) {
      const inside = ruleFilesOf(target);
      files.push(...inside.source, ...inside.bundle);
    }
    else files.push(resolve(target));
  }
  const directories = new Map<string, RulesDirectory>();
  const directoryOf = (file: string): RulesDirectory => {
    const directory = dirname(file);
    let read = directories.get(directory);
    if (!read) directories.set(directory, (read = readRulesDirectory(directory)));
    return read;
  };
  const reports = files.map((file) => checkFile(file, directoryOf));
  for (const directory of directories.values()) {
    for (const problem of repeatedIdProblems(directory.sources)) {
      const report = reports.find((candidate) => candidate.file === problem.file);
      report?.problems.push(problem);
    }
  }
  const failed = reports.some((report) => report.problems.length > 0 || report.tests.some((test) => test.failures.length > 0));
  process.stdout.write(parsed.flags.has("--json") ? JSON.stringify({ ok: !failed, files: reports }, null, 2) + "\n" : humanReport(reports, failed));
  return failed ? 1 : 0;
}

function checkFile(file: string, directoryOf: (file: string) => RulesDirectory): FileReport {
  const kind = ruleFileKind(basename(file));
  if (kind === "bundle") return checkBundle(file);
  const compilation = compileSourceFile(file, directoryOf(file));
  if (!compilation.ok) return { file, ruleset: compilation.source.id, problems: compilation.problems, tests: [] };
  const ruleset = LoadedRuleset.fromBundle(compilation.compiled.bundle, customOperatorsFrom(conformanceOperators));
  const tests = runGoldenTests(ruleset, objectAt(compilation.source.document).tests);
  return { file, ruleset: ruleset.id, problems: [], tests };
}

function checkBundle(file: string): FileReport {
  const parsed = parseJson(readFileSync(file, "utf8"));
  if (!parsed.ok) return { file, problems: [{ code: "BUNDLE_INVALID", message: parsed.message, file }], tests: [] };
  try {
    return { file, ruleset: LoadedRuleset.fromBundle(parsed.value).id, problems: [], tests: [] };
  } catch (error) {
    if (error instanceof LoadError) return { file, problems: error.problems.map((problem) => ({ ...problem, file })), tests: [] };
    throw error;
  }
}

function humanReport(reports: readonly FileReport[], failed: boolean): string {
  const lines: string[] = [];
  let problems = 0;
  let passed = 0;
  let failedTests = 0;
  for (const report of reports) {
    lines.push(`${report.file}${report.ruleset ? ` (${report.ruleset})` : ""}: ${report.problems.length === 0 ? "ok" : `${report.problems.length} problem(s)`}`);
    for (const problem of report.problems) lines.push(`  ${formatProblem(problem)}`);
    problems += report.problems.length;
    for (const test of report.tests) {
      if (test.failures.length === 0) {
        passed++;
        lines.push(`  PASS ${test.name}`);
      } else {
        failedTests++;
        lines.push(`  FAIL ${test.name}`);
        for (const failure of test.failures) lines.push(`       ${failure}`);
      }
    }
  }
  lines.push(`${failed ? "FAILED" : "OK"}: ${reports.length} file(s), ${problems} problem(s), ${passed} test(s) passed, ${failedTests} failed`);
  return lines.join("\n") + "\n";
}
