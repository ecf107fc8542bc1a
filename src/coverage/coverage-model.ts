/**
 * Coverage of rules and decisions, not of lines (`rule-server test --coverage`): what the golden
 * tests did to each rule and to each boolean node of its `when` and `assert`, placed in the file
 * that declares it. Counts are numbers of tests.
 */

/** A rule where it is declared: through `extends`, a child's tests count for the parent's file. */
export interface RuleCoverage {
  readonly file: string;
  /** The id of the ruleset whose document declares the rule. */
  readonly ruleset: string;
  readonly rule: string;
  readonly kind: string;
  /** Where the rule's `id` is written. */
  readonly line: number;
  readonly column: number;
  /** Labels (`ruleset: test name`) of the tests that selected it, fired it, kept it quiet (passed or when-false). */
  readonly selectedBy: Set<string>;
  readonly firedIn: Set<string>;
  readonly quietIn: Set<string>;
}

/** A node of a rule's expression where it is written (an override's `when` sits in the child's file). */
export interface NodeCoverage {
  readonly file: string;
  readonly rule: string;
  /** From the rule to the node, as the manifest holds it: `/when/args/1`. */
  readonly pointer: string;
  /** The operator of a call (`eq`, `and`, `fn:name`), undefined for a reference or a list. */
  readonly operator: string | undefined;
  readonly line: number;
  readonly column: number;
  /** A decision point: a boolean operator of a `when` or `assert`, or the root of one. */
  readonly decision: boolean;
  evaluated: number;
  wasTrue: number;
  wasFalse: number;
}

export type UncoveredReason =
  | "never selected"
  | "never fired"
  | "never quiet"
  | "never true"
  | "never false"
  | "never evaluated";

export interface UncoveredItem {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly rule: string;
  /** For a node: its pointer in the rule and operator. */
  readonly pointer?: string;
  readonly operator?: string;
  readonly reason: UncoveredReason;
}

export interface Ratio {
  readonly total: number;
  readonly covered: number;
  /** covered / total as a percentage, two decimals; 100 when there is nothing to cover. */
  readonly percent: number;
}

/**
 * The totals of some files. `rules`: rules seen both firing and quiet. `outcomes`: fired and
 * quiet of every rule, true and false of every decision point. `functions`, `branches` and
 * `lines` are the figures lcov and Cobertura show: rules fired, decision outcomes seen, lines
 * holding an expression that ran.
 */
export interface CoverageTotals {
  readonly rules: Ratio;
  readonly outcomes: Ratio;
  readonly functions: Ratio;
  readonly branches: Ratio;
  readonly lines: Ratio;
}

export interface FileCoverage {
  readonly file: string;
  /** The rulesets declared in the file (one, as a rule). */
  readonly rulesets: readonly string[];
  readonly rules: readonly RuleCoverage[];
  /** Every node of every expression of the file's rules, in the order of their places. */
  readonly nodes: readonly NodeCoverage[];
  /** Line → tests in which an expression on it ran (the most of its nodes). */
  readonly lines: ReadonlyMap<number, number>;
  readonly totals: CoverageTotals;
  readonly uncovered: readonly UncoveredItem[];
}

export interface CoverageReport {
  readonly files: readonly FileCoverage[];
  readonly totals: CoverageTotals;
}

export function ratio(covered: number, total: number): Ratio {
  return { total, covered, percent: total === 0 ? 100 : Math.floor((covered / total) * 10000) / 100 };
}
