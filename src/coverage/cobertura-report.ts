import type { CoverageReport, FileCoverage, NodeCoverage, Ratio } from "./coverage-model.ts";
import { xml } from "../xml/xml-text.ts";

/**
 * The Cobertura XML report (coverage-04.dtd), which CI services show: a package and a class per
 * source file, named for its ruleset; a method per rule holding the lines of its expressions; a
 * line per line holding an expression, with its decision points as branch conditions. Lines and
 * branches are the figures of the lcov file. `timestamp` is in milliseconds.
 */
export function coberturaReport(
  report: CoverageReport,
  pathOf: (file: string) => string,
  sourceDirectory: string,
  timestamp: number,
): string {
  const { lines, branches } = report.totals;
  const out = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">`,
    `<coverage line-rate="${rate(lines)}" branch-rate="${rate(branches)}" lines-covered="${lines.covered}" lines-valid="${lines.total}" branches-covered="${branches.covered}" branches-valid="${branches.total}" complexity="0" version="rule-server" timestamp="${timestamp}">`,
    `  <sources>`,
    `    <source>${xml(sourceDirectory)}</source>`,
    `  </sources>`,
    `  <packages>`,
  ];
  for (const file of report.files) {
    const name = xml(file.rulesets.join(", ") || pathOf(file.file));
    const rates = `line-rate="${rate(file.totals.lines)}" branch-rate="${rate(file.totals.branches)}"`;
    out.push(`    <package name="${name}" ${rates} complexity="0">`, `      <classes>`);
    out.push(
      `        <class name="${name}" filename="${xml(pathOf(file.file))}" ${rates} complexity="0">`,
      `          <methods>`,
    );
    for (const rule of file.rules) {
      const ruleLines = lineEntries(
        file,
        file.nodes.filter((node) => node.rule === rule.rule),
      );
      const lineRatio = { covered: ruleLines.filter((line) => line.hits > 0).length, total: ruleLines.length };
      const branchRatio = ruleLines.reduce(
        (sum, line) => ({ covered: sum.covered + line.seen, total: sum.total + line.outcomes }),
        { covered: 0, total: 0 },
      );
      out.push(
        `            <method name="${xml(rule.rule)}" signature="" line-rate="${rate(lineRatio)}" branch-rate="${rate(branchRatio)}" complexity="0">`,
        `              <lines>`,
      );
      for (const line of ruleLines) out.push(`                ${lineElement(line)}`);
      out.push(`              </lines>`, `            </method>`);
    }
    out.push(`          </methods>`, `          <lines>`);
    for (const line of lineEntries(file, file.nodes)) out.push(`            ${lineElement(line)}`);
    out.push(`          </lines>`, `        </class>`, `      </classes>`, `    </package>`);
  }
  out.push(`  </packages>`, `</coverage>`);
  return `${out.join("\n")}\n`;
}

interface LineEntry {
  readonly number: number;
  readonly hits: number;
  /** Outcomes of the decision points on the line: seen, and possible (two each). */
  readonly seen: number;
  readonly outcomes: number;
}

function lineEntries(file: FileCoverage, nodes: readonly NodeCoverage[]): LineEntry[] {
  const numbers = [...new Set(nodes.map((node) => node.line))].sort((a, b) => a - b);
  return numbers.map((number) => {
    const decisions = nodes.filter((node) => node.line === number && node.decision);
    const seen = decisions.reduce((sum, node) => sum + (node.wasTrue > 0 ? 1 : 0) + (node.wasFalse > 0 ? 1 : 0), 0);
    return { number, hits: file.lines.get(number) ?? 0, seen, outcomes: 2 * decisions.length };
  });
}

function lineElement(line: LineEntry): string {
  if (line.outcomes === 0) return `<line number="${line.number}" hits="${line.hits}" branch="false"/>`;
  const percent = Math.floor((line.seen / line.outcomes) * 100);
  return `<line number="${line.number}" hits="${line.hits}" branch="true" condition-coverage="${percent}% (${line.seen}/${line.outcomes})"/>`;
}

function rate(ratio: Pick<Ratio, "covered" | "total">): string {
  return ratio.total === 0 ? "1" : String(Math.round((ratio.covered / ratio.total) * 10000) / 10000);
}
