import { displayPath, isWarning, summaryLine, totalsOf, type FileReport } from "./file-report.ts";

/**
 * GitHub Actions workflow commands (`::error file=...,line=...,col=...,title=CODE::message`), one
 * per problem and failed golden test, so a pull request shows each at its line.
 */
export function githubReport(reports: readonly FileReport[]): string {
  const lines: string[] = [];
  for (const report of reports) {
    for (const problem of report.problems) {
      const properties: [string, string | number | undefined][] = [
        ["file", displayPath(problem.file ?? report.file)],
        ["line", problem.line],
        ["col", problem.column],
        ["title", problem.code],
      ];
      lines.push(command(isWarning(problem) ? "warning" : "error", properties, `${problem.rule ? `[${problem.rule}] ` : ""}${problem.message}`));
    }
    for (const test of report.tests) {
      if (test.failures.length === 0) continue;
      lines.push(command("error", [["file", displayPath(report.file)], ["title", "GOLDEN_TEST_FAILED"]], `${test.name}: ${test.failures.join("; ")}`));
    }
  }
  lines.push(summaryLine(totalsOf(reports)));
  return lines.join("\n") + "\n";
}

function command(name: string, properties: readonly [string, string | number | undefined][], message: string): string {
  const written = properties.filter(([, value]) => value !== undefined).map(([key, value]) => `${key}=${escapeProperty(String(value))}`);
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
