import type { CoverageReport } from "./coverage-model.ts";

/**
 * The lcov tracefile (geninfo(1)): one record per source file; a function per rule at the line
 * of its `id` (hits: tests in which it fired); two branches per decision point, true then false
 * (`-` when it was never evaluated); a line per line holding an expression (hits: tests in which
 * an expression on it ran).
 */
export function lcovReport(report: CoverageReport, pathOf: (file: string) => string): string {
  const lines: string[] = [];
  for (const file of report.files) {
    lines.push("TN:", `SF:${pathOf(file.file)}`);
    for (const rule of file.rules) lines.push(`FN:${rule.line},${rule.rule}`);
    for (const rule of file.rules) lines.push(`FNDA:${rule.firedIn.size},${rule.rule}`);
    lines.push(`FNF:${file.totals.functions.total}`, `FNH:${file.totals.functions.covered}`);
    let block = 0;
    for (const node of file.nodes) {
      if (!node.decision) continue;
      const taken = (count: number): string => (node.evaluated === 0 ? "-" : String(count));
      lines.push(
        `BRDA:${node.line},${block},0,${taken(node.wasTrue)}`,
        `BRDA:${node.line},${block},1,${taken(node.wasFalse)}`,
      );
      block++;
    }
    lines.push(`BRF:${file.totals.branches.total}`, `BRH:${file.totals.branches.covered}`);
    for (const [line, hits] of [...file.lines].sort(([a], [b]) => a - b)) lines.push(`DA:${line},${hits}`);
    lines.push(`LF:${file.totals.lines.total}`, `LH:${file.totals.lines.covered}`, "end_of_record");
  }
  return `${lines.join("\n")}\n`;
}
