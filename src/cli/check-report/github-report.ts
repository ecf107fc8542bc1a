import type { LoadProblem } from "../../engine/bundle/load-problem.ts";
import { isWarning, type FileReport } from "../../workspace/file-report.ts";
import { displayPath, summaryLine, totalsOf } from "./check-totals.ts";

/**
 * GitHub Actions workflow commands (`::error file=...,line=...,col=...,title=CODE::message`), one
 * per problem and failed golden test, and a `::warning` per warning, so a pull request shows each at its line.
 */
export function githubReport(reports: readonly FileReport[], cwd: string): string {
  const lines: string[] = [];
  for (const report of reports) {
    for (const problem of report.problems)
      lines.push(annotation(isWarning(problem) ? "warning" : "error", problem, report.file, cwd));
    for (const warning of report.warnings) lines.push(annotation("warning", warning, report.file, cwd));
    for (const test of report.tests) {
      if (test.failures.length === 0) continue;
      const properties: [string, string | number | undefined][] = [
        ["file", displayPath(report.file, cwd)],
        ["line", test.line],
        ["col", test.column],
        ["title", "GOLDEN_TEST_FAILED"],
      ];
      lines.push(
        command("error", properties, [`${test.name}: ${test.failures.join("; ")}`, ...(test.diff ?? [])].join("\n")),
      );
    }
  }
  lines.push(summaryLine(totalsOf(reports)));
  return `${lines.join("\n")}\n`;
}

/** The command for a problem or a warning, at its place, the message led by its rule. */
function annotation(name: "error" | "warning", problem: LoadProblem, file: string, cwd: string): string {
  const properties: [string, string | number | undefined][] = [
    ["file", displayPath(problem.file ?? file, cwd)],
    ["line", problem.line],
    ["col", problem.column],
    ["title", problem.code],
  ];
  return command(name, properties, `${problem.rule ? `[${problem.rule}] ` : ""}${problem.message}`);
}

function command(name: string, properties: readonly [string, string | number | undefined][], message: string): string {
  const written = properties
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`);
  return `::${name} ${written.join(",")}::${escapeData(message)}`;
}

/** The escapes GitHub reads back in a command's message. */
export function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

/** In a property value `:` and `,` separate, so they are escaped too. */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}
