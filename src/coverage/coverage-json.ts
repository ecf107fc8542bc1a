import type { CoverageReport } from "./coverage-model.ts";

/**
 * The coverage report as JSON: totals, then per file its totals, each rule with the tests that
 * selected it (and how many fired it or kept it quiet), each decision point with the tests in
 * which it was evaluated, true and false, and the uncovered items with their reasons.
 */
export function coverageJson(report: CoverageReport, pathOf: (file: string) => string): object {
  return {
    totals: report.totals,
    files: report.files.map((file) => ({
      file: pathOf(file.file),
      rulesets: file.rulesets,
      totals: file.totals,
      rules: file.rules.map((rule) => ({
        rule: rule.rule,
        kind: rule.kind,
        ruleset: rule.ruleset,
        line: rule.line,
        column: rule.column,
        selected: rule.selectedBy.size,
        fired: rule.firedIn.size,
        quiet: rule.quietIn.size,
        tests: [...rule.selectedBy].sort(),
      })),
      decisions: file.nodes
        .filter((node) => node.decision)
        .map((node) => ({
          rule: node.rule,
          pointer: node.pointer,
          ...(node.operator === undefined ? {} : { operator: node.operator }),
          line: node.line,
          column: node.column,
          evaluated: node.evaluated,
          true: node.wasTrue,
          false: node.wasFalse,
        })),
      uncovered: file.uncovered.map(({ file: _file, ...item }) => item),
    })),
  };
}
