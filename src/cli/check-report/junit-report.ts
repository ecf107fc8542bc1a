import { ruleLines } from "../../engine/explanation/explanation-text.ts";
import type { RuleExplanation } from "../../engine/explanation/explanation.ts";
import type { FileReport } from "../../workspace/file-report.ts";
import { displayPath, totalsOf } from "./check-totals.ts";
import { xml } from "../../xml/xml-text.ts";

/**
 * JUnit XML, which CI systems show as test results: one testsuite per file, holding a testcase
 * per load problem (failed) or one `loads` testcase (passed), a passed testcase per warning
 * (named `warning CODE at line:column [rule]`, its message in `system-out`: a warning is shown,
 * never counted as a failure) and a testcase per golden test.
 */
export function junitReport(reports: readonly FileReport[], cwd: string): string {
  const totals = totalsOf(reports);
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="rule-server check" tests="${reports.reduce((sum, report) => sum + casesOf(report), 0)}" failures="${totals.problems + totals.failed}">`,
  ];
  for (const report of reports) {
    const file = displayPath(report.file, cwd);
    const failures = report.problems.length + report.tests.filter((test) => test.failures.length > 0).length;
    lines.push(`  <testsuite name="${xml(file)}" tests="${casesOf(report)}" failures="${failures}">`);
    if (report.problems.length === 0) lines.push(`    <testcase classname="${xml(file)}" name="loads"/>`);
    for (const problem of report.problems) {
      const place = problem.line === undefined ? "" : ` at ${problem.line}:${problem.column ?? 1}`;
      const name = `${problem.code}${place}${problem.rule ? ` [${problem.rule}]` : ""}`;
      lines.push(`    <testcase classname="${xml(file)}" name="${xml(name)}">`);
      lines.push(
        `      <failure type="${xml(problem.code)}" message="${xml(problem.message)}">${xml(`${displayPath(problem.file ?? report.file, cwd)}${place}: ${problem.message}`)}</failure>`,
      );
      lines.push(`    </testcase>`);
    }
    for (const warning of report.warnings) {
      const place = warning.line === undefined ? "" : ` at ${warning.line}:${warning.column ?? 1}`;
      lines.push(
        `    <testcase classname="${xml(file)}" name="${xml(`warning ${warning.code}${place}${warning.rule ? ` [${warning.rule}]` : ""}`)}">`,
      );
      lines.push(
        `      <system-out>${xml(`${displayPath(warning.file ?? report.file, cwd)}${place}: warning ${warning.code}: ${warning.message}`)}</system-out>`,
      );
      lines.push(`    </testcase>`);
    }
    for (const test of report.tests) {
      if (test.failures.length === 0) {
        lines.push(`    <testcase classname="${xml(file)}" name="${xml(test.name)}"/>`);
        continue;
      }
      const place = test.line === undefined ? "" : ` file="${xml(file)}" line="${test.line}"`;
      const at = test.line === undefined ? [] : [`${file}:${test.line}:${test.column ?? 1}`];
      const diff = test.diff === undefined ? [] : ["expected (-) against actual (+):", ...test.diff];
      lines.push(`    <testcase classname="${xml(file)}" name="${xml(test.name)}"${place}>`);
      lines.push(
        `      <failure type="GOLDEN_TEST_FAILED" message="${xml(test.failures[0]!)}">${xml([...at, ...test.failures, ...diff, ...explainedLines(test.explained)].join("\n"))}</failure>`,
      );
      lines.push(`    </testcase>`);
    }
    lines.push(`  </testsuite>`);
  }
  lines.push(`</testsuites>`);
  return `${lines.join("\n")}\n`;
}

function casesOf(report: FileReport): number {
  return Math.max(report.problems.length, 1) + report.warnings.length + report.tests.length;
}

/** The explanation of the rules whose outcome differs, as `check`'s text report writes it. */
function explainedLines(explained: readonly RuleExplanation[] | undefined): string[] {
  if (explained === undefined || explained.length === 0) return [];
  return ["why, for the rules whose outcome differs:", ...explained.flatMap((rule) => ruleLines(rule))];
}
