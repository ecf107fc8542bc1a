import type { CoverageReport, Ratio, UncoveredItem } from "./coverage-model.ts";

/** The coverage summary for a terminal: the totals, then each file's with its uncovered items at `path:line:column`. */
export function coverageText(report: CoverageReport, pathOf: (file: string) => string): string {
  const lines = [`coverage: ${figures(report.totals.rules, report.totals.outcomes)}`];
  for (const file of report.files) {
    lines.push(
      `  ${pathOf(file.file)}${file.rulesets.length > 0 ? ` (${file.rulesets.join(", ")})` : ""}: ${figures(file.totals.rules, file.totals.outcomes)}`,
    );
    for (const item of file.uncovered) lines.push(`    ${uncoveredLine(item, pathOf)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** `rules/a.ruleset.yaml:12:9: [rule.id] /when/args/0 (eq) never false`. */
export function uncoveredLine(item: UncoveredItem, pathOf: (file: string) => string): string {
  const node =
    item.pointer === undefined ? "" : ` ${item.pointer}${item.operator === undefined ? "" : ` (${item.operator})`}`;
  return `${pathOf(item.file)}:${item.line}:${item.column}: [${item.rule}]${node} ${item.reason}`;
}

function figures(rules: Ratio, outcomes: Ratio): string {
  return `rules ${rules.covered}/${rules.total} (${rules.percent}%), outcomes ${outcomes.covered}/${outcomes.total} (${outcomes.percent}%)`;
}
