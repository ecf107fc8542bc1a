import { basename, dirname, resolve } from "node:path";
import { runGoldenTests } from "../compiler/golden/run-golden-tests.ts";
import { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import { conformanceOperators } from "../engine/conformance-operators.ts";
import { customOperatorsFrom } from "../engine/expression/custom-operators.ts";
import { objectAt } from "../engine/value/json-access.ts";
import { readBundleFile } from "../rule-files/read-bundle-file.ts";
import { ruleFileKind } from "../rule-files/rule-file-kind.ts";
import { ruleFilesOf } from "../rule-files/rule-files-of-directory.ts";
import { isDirectory, repeatedIdProblems } from "../rule-files/source-documents.ts";
import type { FileReport } from "./check-report/file-report.ts";
import { githubReport } from "./check-report/github-report.ts";
import { junitReport } from "./check-report/junit-report.ts";
import { textReport } from "./check-report/text-report.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { compileSourceFile, readRulesDirectory, type RulesDirectory } from "./compile-source-file.ts";
import { UsageError } from "./usage-error.ts";

const FORMATS: Record<string, (reports: readonly FileReport[], failed: boolean) => string> = {
  text: (reports) => textReport(reports),
  json: (reports, failed) => JSON.stringify({ ok: !failed, files: reports }, null, 2) + "\n",
  github: (reports) => githubReport(reports),
  junit: (reports) => junitReport(reports),
};

/**
 * `rule-server check <file|dir>... [--format text|json|github|junit] [--json] [--strict]`: every
 * load check of the named rulesets (and of the rulesets and bundles in the named directories) and
 * their golden tests, run with the conformance operators registered, and the warnings of rules
 * that load but can never be right. Exit status 1 on any problem or failed test, and when the
 * paths hold no ruleset at all, for CI; warnings alone leave it 0, unless `--strict` makes them problems.
 */
export function runCheckCommand(args: readonly string[]): number {
  const parsed = parseCommandArguments("check", args, { flags: ["--json", "--strict"], options: ["--format"] });
  if (parsed.positional.length === 0) throw new UsageError("check: name at least one ruleset file or directory");
  const format = parsed.flags.has("--json") ? "json" : (parsed.options.get("--format") ?? "text");
  const write = FORMATS[format];
  if (write === undefined) throw new UsageError(`check: --format must be one of ${Object.keys(FORMATS).join(", ")}, not ${format}`);
  const files: string[] = [];
  for (const target of parsed.positional) {
    if (isDirectory(target)) {
      const inside = ruleFilesOf(target);
      files.push(...inside.source, ...inside.bundle);
    }
    else files.push(resolve(target));
  }
  if (files.length === 0) {
    process.stderr.write(`rule-server check: no ruleset found in ${parsed.positional.join(", ")} (no *.ruleset.yaml, *.ruleset.yml, *.ruleset.json or *.bundle.json file)\n`);
    return 1;
  }
  const directories = new Map<string, RulesDirectory>();
  const directoryOf = (file: string): RulesDirectory => {
    const directory = dirname(file);
    let read = directories.get(directory);
    if (!read) directories.set(directory, (read = readRulesDirectory(directory)));
    return read;
  };
  const strict = parsed.flags.has("--strict");
  const reports = files.map((file) => checkFile(file, directoryOf, strict));
  for (const directory of directories.values()) {
    for (const problem of repeatedIdProblems(directory.sources)) {
      const report = reports.find((candidate) => candidate.file === problem.file);
      report?.problems.push(problem);
    }
  }
  const failed = reports.some((report) => report.problems.length > 0 || report.tests.some((test) => test.failures.length > 0));
  process.stdout.write(write(reports, failed));
  return failed ? 1 : 0;
}

/** One file's report; with `strict`, its warnings are reported as its problems. */
function checkFile(file: string, directoryOf: (file: string) => RulesDirectory, strict: boolean): FileReport {
  const kind = ruleFileKind(basename(file));
  if (kind === "bundle") return checkBundle(file);
  const compilation = compileSourceFile(file, directoryOf(file));
  if (!compilation.ok) return { file, ruleset: compilation.source.id, problems: compilation.problems, warnings: [], tests: [] };
  const ruleset = LoadedRuleset.fromBundle(compilation.compiled.bundle, customOperatorsFrom(conformanceOperators));
  const tests = runGoldenTests(ruleset, objectAt(compilation.source.document).tests);
  const warnings = [...compilation.warnings];
  return strict ? { file, ruleset: ruleset.id, problems: warnings, warnings: [], tests } : { file, ruleset: ruleset.id, problems: [], warnings, tests };
}

function checkBundle(file: string): FileReport {
  const read = readBundleFile(file);
  return read.ok ? { file, ruleset: read.ruleset.id, problems: [], warnings: [], tests: [] } : { file, problems: read.problems, warnings: [], tests: [] };
}
