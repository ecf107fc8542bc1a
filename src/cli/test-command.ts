import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { coberturaReport } from "../coverage/cobertura-report.ts";
import { coverageJson } from "../coverage/coverage-json.ts";
import type { CoverageReport } from "../coverage/coverage-model.ts";
import { coverageText, uncoveredLine } from "../coverage/coverage-text.ts";
import {
  parseThreshold,
  shortfalls,
  ThresholdSyntaxError,
  type CoverageThreshold,
} from "../coverage/coverage-threshold.ts";
import { lcovReport } from "../coverage/lcov-report.ts";
import { displayPath } from "./check-report/check-totals.ts";
import { reportWriter } from "./check-report/report-formats.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { nameGlob } from "./name-glob.ts";
import { isDirectory } from "../workspace/files/source-documents.ts";
import { operatorsOption } from "./operators-option.ts";
import { ruleFilesNamed } from "../workspace/rule-file-checks.ts";
import { runGoldenTestFiles } from "./golden-test-run.ts";
import { UsageError } from "./usage-error.ts";
import { commandPath, workingDirectory, type CommandIo } from "./command-io.ts";

/** Exit statuses of `rule-server test`, for CI. */
export const TEST_EXIT = { passed: 0, failed: 1, notLoaded: 2, underThreshold: 3 } as const;

export const COVERAGE_FORMATS = ["json", "lcov", "cobertura"] as const;
type CoverageFormat = (typeof COVERAGE_FORMATS)[number];
/** The file of each `--coverage-format`, in the `--coverage-out` directory (`test --help` names them). */
export const COVERAGE_FILES: Record<CoverageFormat, string> = {
  json: "coverage.json",
  lcov: "lcov.info",
  cobertura: "cobertura.xml",
};
/** Where coverage files go without `--coverage-out`, relative to the working directory. */
export const DEFAULT_COVERAGE_OUT = "coverage";

/**
 * `rule-server test [file|dir]...`: the golden tests of the named rulesets (the working directory
 * when none is named), filtered, reported in the formats of `check`, with coverage of rules and
 * decisions on request. Exit 0 when every test passed, 1 when one failed (or none ran under
 * `--fail-on-empty`), 2 when a file does not load, 3 when coverage is under `--threshold`.
 */
export async function runTestCommand(args: readonly string[], io: CommandIo): Promise<number> {
  const parsed = parseCommandArguments("test", args, {
    flags: ["--coverage", "--fail-on-empty"],
    options: ["--filter", "--format", "--coverage-format", "--coverage-out", "--threshold", "--operators"],
  });
  const write = reportWriter("test", parsed.options.get("--format") ?? "text");
  const coverageFormats = parseCoverageFormats(parsed.options.get("--coverage-format"));
  const threshold = parseThresholdOption(parsed.options.get("--threshold"));
  const coverage = parsed.flags.has("--coverage") || coverageFormats.length > 0 || threshold !== undefined;
  const filterText = parsed.options.get("--filter");
  const filter = filterText === undefined ? undefined : nameGlob(filterText);
  const targets = parsed.positional.length === 0 ? ["."] : parsed.positional;
  const paths = targets.map((target) => commandPath(io, target));
  const files = ruleFilesNamed(paths);
  if (files.length === 0) {
    await io.stderr.write(
      `rule-server test: no ruleset found in ${targets.join(", ")} (no *.ruleset.yaml, *.ruleset.yml, *.ruleset.json or *.bundle.json file)\n`,
    );
    return TEST_EXIT.notLoaded;
  }

  const { reports, coverage: coverageReport } = runGoldenTestFiles(files, {
    ...(filter === undefined ? {} : { filter }),
    coverage,
    directories: paths.filter(isDirectory),
    operators: operatorsOption("test", parsed.options.get("--operators")),
  });
  const loadFailed = reports.some((report) => report.problems.length > 0);
  const testFailed = reports.some((report) => report.tests.some((test) => test.failures.length > 0));
  const ran = reports.reduce((sum, report) => sum + report.tests.length, 0);
  const failed = loadFailed || testFailed;
  const format = parsed.options.get("--format") ?? "text";
  const cwd = workingDirectory(io);
  const shown = (file: string): string => displayPath(file, cwd);
  await io.stdout.write(
    write(
      reports,
      failed,
      cwd,
      coverageReport === undefined ? undefined : { coverage: coverageJson(coverageReport, shown) },
    ),
  );
  if (coverageReport !== undefined) {
    const summary = coverageText(coverageReport, shown);
    // Machine-read formats keep stdout to themselves: the summary goes to stderr.
    if (format === "text") await io.stdout.write(summary);
    else if (format !== "json") await io.stderr.write(summary);
    writeCoverageFiles(coverageReport, coverageFormats, {
      directory: commandPath(io, parsed.options.get("--coverage-out") ?? DEFAULT_COVERAGE_OUT),
      cwd,
      sourceDateEpoch: io.env.SOURCE_DATE_EPOCH,
    });
  }
  if (loadFailed) return TEST_EXIT.notLoaded;
  if (testFailed) return TEST_EXIT.failed;
  if (ran === 0 && parsed.flags.has("--fail-on-empty")) {
    await io.stderr.write(
      `rule-server test: no test ran${filterText === undefined ? "" : ` (none matches --filter ${filterText})`}\n`,
    );
    return TEST_EXIT.failed;
  }
  if (coverageReport !== undefined && threshold !== undefined) {
    const missing = shortfalls(coverageReport, threshold);
    if (missing.length > 0) {
      const uncovered = coverageReport.files
        .flatMap((file) => file.uncovered)
        .map((item) => `  ${uncoveredLine(item, shown)}`);
      await io.stderr.write(
        `rule-server test: coverage under the threshold: ${missing.join("; ")}\nnot covered:\n${uncovered.join("\n")}\n`,
      );
      return TEST_EXIT.underThreshold;
    }
  }
  return TEST_EXIT.passed;
}

function parseCoverageFormats(text: string | undefined): CoverageFormat[] {
  if (text === undefined) return [];
  const formats = text.split(",").map((format) => format.trim());
  for (const format of formats) {
    if (!(COVERAGE_FORMATS as readonly string[]).includes(format))
      throw new UsageError(
        `test: --coverage-format takes ${COVERAGE_FORMATS.join(", ")} (several separated by commas), not ${format}`,
      );
  }
  return [...new Set(formats)] as CoverageFormat[];
}

function parseThresholdOption(text: string | undefined): CoverageThreshold | undefined {
  if (text === undefined) return undefined;
  try {
    return parseThreshold(text);
  } catch (error) {
    if (error instanceof ThresholdSyntaxError) throw new UsageError(`test: ${error.message}`);
    throw error;
  }
}

/**
 * Writes the coverage files asked for into `directory` (made when missing), paths relative to
 * `cwd`. SOURCE_DATE_EPOCH (seconds) makes the Cobertura file's timestamp reproducible, as for builds.
 */
function writeCoverageFiles(
  report: CoverageReport,
  formats: readonly CoverageFormat[],
  where: { directory: string; cwd: string; sourceDateEpoch: string | undefined },
): void {
  if (formats.length === 0) return;
  mkdirSync(where.directory, { recursive: true });
  const epoch = Number(where.sourceDateEpoch);
  const timestamp = Number.isFinite(epoch) && where.sourceDateEpoch !== "" ? epoch * 1000 : Date.now();
  const shown = (file: string): string => displayPath(file, where.cwd);
  const writers: Record<CoverageFormat, () => string> = {
    json: () => `${JSON.stringify(coverageJson(report, shown), null, 2)}\n`,
    lcov: () => lcovReport(report, shown),
    cobertura: () => coberturaReport(report, shown, resolve(where.cwd), timestamp),
  };
  for (const format of formats) writeFileSync(join(where.directory, COVERAGE_FILES[format]), writers[format]());
}
