import type { DocumentSources } from "../compiler/problems/problem-place.ts";
import type { ResolvedRuleset } from "../compiler/resolve/resolve-ruleset.ts";
import { placedRuleExpressions, walkExpression } from "../compiler/expressions/expression-walk.ts";
import type { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import { BOOLEAN_OPERATORS } from "../engine/expression/operators/operator-kinds.ts";
import type { CoverageProbe } from "../engine/coverage/coverage-probe.ts";
import type { RuleExplanation } from "../engine/explanation/explanation.ts";
import { objectAt, stringAt } from "../engine/value/json-access.ts";
import type { JsonObject } from "../engine/value/json-value.ts";
import { escapePointerToken } from "../engine/value/json-pointer-token.ts";
import type { CoverageReport, FileCoverage, NodeCoverage, RuleCoverage, UncoveredItem } from "./coverage-model.ts";
import { totalsOf } from "./coverage-totals.ts";

/**
 * Gathers coverage over the rulesets a test run compiled: what each test did to each rule (from
 * its statuses) and, once the tests have run, what they did to each node (from each ruleset's
 * probe). Rules and nodes are keyed by the place that declares them, so a parent's rule run by a
 * child's test and by the parent's own tests is one item.
 */
export class CoverageCollector {
  private readonly rules = new Map<string, RuleCoverage>();
  private readonly nodes = new Map<string, NodeCoverage>();
  /** file → rulesets declared in it. */
  private readonly rulesets = new Map<string, Set<string>>();

  /** One test's statuses: every rule but `not-selected` was selected; `fired`, or quiet when `passed` or `when-false`. */
  recordTest(
    ruleset: ResolvedRuleset,
    sources: DocumentSources,
    label: string,
    statuses: readonly RuleExplanation[],
  ): void {
    for (const status of statuses) {
      if (status.status === "not-selected") continue;
      const rule = this.ruleEntry(ruleset, sources, status.rule, status.kind);
      if (rule === undefined) continue;
      rule.selectedBy.add(label);
      if (status.status === "fired") rule.firedIn.add(label);
      else if (status.status === "passed" || status.status === "when-false") rule.quietIn.add(label);
    }
  }

  /** Every rule of a ruleset's manifests and every node of their expressions, with what its tests (run under `probe`) did to them. */
  addRuleset(ruleset: ResolvedRuleset, sources: DocumentSources, loaded: LoadedRuleset, probe: CoverageProbe): void {
    for (const channel of loaded.channels) {
      for (const entry of (loaded.manifest(channel).rules ?? []) as JsonObject[]) {
        const id = stringAt(entry.id);
        if (this.ruleEntry(ruleset, sources, id, stringAt(entry.kind)) === undefined) continue;
        // Overrides change a rule's attributes, never its expressions: they are where the rule is declared.
        const declared = ruleset.places.rules.get(id)!;
        const source = sources(declared.document)!;
        for (const { expression, path } of placedRuleExpressions(entry)) {
          const condition = path[0] === "when" || path[0] === "assert";
          walkExpression(expression, (node, _itemBound, inner) => {
            const sourcePath = [...declared.path, ...path, ...inner];
            const key = `${source.file}\u0000${sourcePath.join("/")}`;
            let covered = this.nodes.get(key);
            if (covered === undefined) {
              const position = source.locate(sourcePath, "value");
              if (position === undefined) return;
              const operator =
                typeof node.op === "string" ? node.op : typeof node.fn === "string" ? `fn:${node.fn}` : undefined;
              covered = {
                file: source.file,
                rule: id,
                pointer: `/${[...path, ...inner].map(escapePointerToken).join("/")}`,
                operator,
                line: position.line,
                column: position.column,
                decision:
                  condition && (inner.length === 0 || (typeof node.op === "string" && BOOLEAN_OPERATORS.has(node.op))),
                evaluated: 0,
                wasTrue: 0,
                wasFalse: 0,
              };
              this.nodes.set(key, covered);
            }
            // A rule on both channels is counted from each channel's tests (a test runs on one).
            const tally = probe.tallyOf(channel, node);
            if (tally === undefined) return;
            covered.evaluated += tally.evaluated;
            covered.wasTrue += tally.wasTrue;
            covered.wasFalse += tally.wasFalse;
          });
        }
      }
    }
  }

  report(): CoverageReport {
    const files = new Map<string, { rules: RuleCoverage[]; nodes: NodeCoverage[] }>();
    const fileOf = (file: string) => {
      let entry = files.get(file);
      if (entry === undefined) files.set(file, (entry = { rules: [], nodes: [] }));
      return entry;
    };
    for (const rule of this.rules.values()) fileOf(rule.file).rules.push(rule);
    for (const node of this.nodes.values()) fileOf(node.file).nodes.push(node);
    const byPlace = (a: { line: number; column: number }, b: { line: number; column: number }): number =>
      a.line - b.line || a.column - b.column;
    const reports: FileCoverage[] = [...files.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([file, { rules, nodes }]) => {
        rules.sort(byPlace);
        nodes.sort(byPlace);
        const lines = new Map<number, number>();
        for (const node of nodes) lines.set(node.line, Math.max(lines.get(node.line) ?? 0, node.evaluated));
        return {
          file,
          rulesets: [...(this.rulesets.get(file) ?? [])].sort(),
          rules,
          nodes,
          lines,
          totals: totalsOf(rules, nodes, lines),
          uncovered: uncoveredItems(rules, nodes).sort(byPlace),
        };
      });
    return {
      files: reports,
      totals: totalsOf(
        reports.flatMap((file) => file.rules),
        reports.flatMap((file) => file.nodes),
        reports.map((file) => file.lines),
      ),
    };
  }

  private ruleEntry(
    ruleset: ResolvedRuleset,
    sources: DocumentSources,
    id: string,
    kind: string,
  ): RuleCoverage | undefined {
    const declared = ruleset.places.rules.get(id);
    const source = declared === undefined ? undefined : sources(declared.document);
    if (declared === undefined || source === undefined) return undefined;
    const key = `${source.file}\u0000${id}`;
    let rule = this.rules.get(key);
    if (rule === undefined) {
      const position = source.locate([...declared.path, "id"], "value") ??
        source.locate(declared.path, "value") ?? { line: 1, column: 1 };
      const declaring = stringAt(objectAt(objectAt(declared.document).metadata).id);
      rule = {
        file: source.file,
        ruleset: declaring,
        rule: id,
        kind,
        line: position.line,
        column: position.column,
        selectedBy: new Set(),
        firedIn: new Set(),
        quietIn: new Set(),
      };
      this.rules.set(key, rule);
      let inFile = this.rulesets.get(source.file);
      if (inFile === undefined) this.rulesets.set(source.file, (inFile = new Set()));
      inFile.add(declaring);
    }
    return rule;
  }
}

/** What is not covered, with why: a rule never selected says so once; a node never evaluated is not also never true and false. */
function uncoveredItems(rules: readonly RuleCoverage[], nodes: readonly NodeCoverage[]): UncoveredItem[] {
  const items: UncoveredItem[] = [];
  for (const rule of rules) {
    const at = { file: rule.file, line: rule.line, column: rule.column, rule: rule.rule };
    if (rule.selectedBy.size === 0) items.push({ ...at, reason: "never selected" });
    else {
      if (rule.firedIn.size === 0) items.push({ ...at, reason: "never fired" });
      if (rule.quietIn.size === 0) items.push({ ...at, reason: "never quiet" });
    }
  }
  for (const node of nodes) {
    if (!node.decision) continue;
    const at = {
      file: node.file,
      line: node.line,
      column: node.column,
      rule: node.rule,
      pointer: node.pointer,
      ...(node.operator === undefined ? {} : { operator: node.operator }),
    };
    if (node.evaluated === 0) items.push({ ...at, reason: "never evaluated" });
    else {
      if (node.wasTrue === 0) items.push({ ...at, reason: "never true" });
      if (node.wasFalse === 0) items.push({ ...at, reason: "never false" });
    }
  }
  return items;
}
