import { ratio, type CoverageTotals, type NodeCoverage, type RuleCoverage } from "./coverage-model.ts";

/** The totals of some rules, nodes and expression lines (coverage-model.ts says what each counts). */
export function totalsOf(
  rules: readonly RuleCoverage[],
  nodes: readonly NodeCoverage[],
  lines: ReadonlyMap<number, number> | readonly ReadonlyMap<number, number>[],
): CoverageTotals {
  const decisions = nodes.filter((node) => node.decision);
  const fired = rules.filter((rule) => rule.firedIn.size > 0).length;
  const quiet = rules.filter((rule) => rule.quietIn.size > 0).length;
  const branchesSeen = decisions.reduce(
    (sum, node) => sum + (node.wasTrue > 0 ? 1 : 0) + (node.wasFalse > 0 ? 1 : 0),
    0,
  );
  const lineMaps = lines instanceof Map ? [lines] : (lines as readonly ReadonlyMap<number, number>[]);
  const lineCount = lineMaps.reduce((sum, map) => sum + map.size, 0);
  const linesRun = lineMaps.reduce((sum, map) => sum + [...map.values()].filter((hits) => hits > 0).length, 0);
  return {
    rules: ratio(rules.filter((rule) => rule.firedIn.size > 0 && rule.quietIn.size > 0).length, rules.length),
    outcomes: ratio(fired + quiet + branchesSeen, 2 * rules.length + 2 * decisions.length),
    functions: ratio(fired, rules.length),
    branches: ratio(branchesSeen, 2 * decisions.length),
    lines: ratio(linesRun, lineCount),
  };
}
