import { ruleLines } from "../../engine/explanation/explanation-text.ts";
import type { LoadProblem } from "../../engine/bundle/load-problem.ts";
import type { FileReport } from "../../workspace/file-report.ts";
import { displayPath, summaryLine, totalsOf } from "./check-totals.ts";

/**
 * `path:line:column: CODE [rule-id] message` on one line: the form editors and CI problem
 * matchers read. A problem of the whole file (one that cannot be read) is put at its start, 1:1,
 * so that no problem line escapes a matcher.
 */
export function formatProblem(problem: LoadProblem, cwd: string): string {
  const message = problem.message.replace(/\s*[\r\n]+\s*/g, " ");
  return `${displayPath(problem.file ?? "", cwd)}:${problem.line ?? 1}:${problem.column ?? 1}: ${problem.code}${problem.rule ? ` [${problem.rule}]` : ""} ${message}`;
}

/** `path:line:column: warning CODE [rule-id] message`: a problem line with the word that tells it apart. */
export function formatWarning(warning: LoadProblem, cwd: string): string {
  return formatProblem({ ...warning, code: `warning ${warning.code}` }, cwd);
}

/** `ok`, `2 problem(s)`, `ok, 1 warning(s)`, `2 problem(s), 1 warning(s)`. */
function fileStatus(report: FileReport): string {
  const problems = report.problems.length === 0 ? "ok" : `${report.problems.length} problem(s)`;
  return report.warnings.length === 0 ? problems : `${problems}, ${report.warnings.length} warning(s)`;
}

/** The report for a terminal: each file, its problems, its warnings, its golden tests, then the totals; paths relative to `cwd`. */
export function textReport(reports: readonly FileReport[], cwd: string): string {
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(
      `${displayPath(report.file, cwd)}${report.ruleset ? ` (${report.ruleset})` : ""}: ${fileStatus(report)}`,
    );
    for (const problem of report.problems)
      lines.push(formatProblem({ ...problem, file: problem.file ?? report.file }, cwd));
    for (const warning of report.warnings)
      lines.push(formatWarning({ ...warning, file: warning.file ?? report.file }, cwd));
    for (const test of report.tests) {
      const place =
        test.failures.length > 0 && test.line !== undefined
          ? ` at ${displayPath(report.file, cwd)}:${test.line}:${test.column ?? 1}`
          : "";
      lines.push(`  ${test.failures.length === 0 ? "PASS" : "FAIL"} ${test.name}${place}`);
      for (const failure of test.failures) lines.push(`       ${failure}`);
      if (test.diff !== undefined && test.diff.length > 0) {
        lines.push("       expected (-) against actual (+):");
        for (const line of test.diff) lines.push(`         ${line}`);
      }
      if (test.explained !== undefined && test.explained.length > 0) {
        lines.push("       why, for the rules whose outcome differs:");
        for (const rule of test.explained) for (const line of ruleLines(rule)) lines.push(`         ${line}`);
      }
    }
  }
  lines.push(summaryLine(totalsOf(reports)));
  return `${lines.join("\n")}\n`;
}
