import type { JsonValue } from "../value/json-value.ts";

/**
 * Why an evaluation came out as it did (DECISIONS.md, Extensions, round 3): asked for with
 * `explain`, never computed otherwise. `rules` says what each rule of the manifest did; `full`
 * adds the values of every expression that was evaluated.
 */
export type ExplainMode = "rules" | "full";

export const EXPLAIN_MODES: readonly ExplainMode[] = ["rules", "full"];

export function isExplainMode(value: unknown): value is ExplainMode {
  return value === "rules" || value === "full";
}

/** How every host refuses another `explain` value (the server's 400 title, the protocol's BAD_REQUEST). */
export const EXPLAIN_REFUSAL = "'explain' must be rules or full";

/**
 * The first selection test a rule failed. Beyond the contract's list: `disabled` (`enabled:
 * false`), `decision` (an action rule that never ran because the decision was `deny`) and `kind`
 * (a rule of an `x-*` extension kind, which runtimes do not run).
 */
export type NotSelectedReason =
  | "disabled"
  | "entity"
  | "operation"
  | "channel"
  | "enforcement"
  | "trigger"
  | "view"
  | "decision"
  | "kind";

export type RuleStatus = "not-selected" | "when-false" | "passed" | "fired" | "error";

/** One node of an evaluated expression: the expression as the manifest holds it, as people read it, and its value. */
export interface ExplainedNode {
  expr: JsonValue;
  /** `expr` written as text (readableExpressionText), as the explorer and the command line show it. */
  text: string;
  value?: JsonValue;
  /** Never evaluated: an argument a short-circuit skipped, or the body of a collection over no items. */
  skipped?: true;
  /** The evaluation error this node raised (the rule failed closed). */
  error?: string;
  args?: ExplainedNode[];
  /** On a collection operator: the index of the item its body is shown for. */
  item?: number;
  /** The value was cut to stay readable (strings past 200 characters, lists and objects past 50 members). */
  truncated?: true;
}

export interface CommandExplanation {
  idempotencyKey: ExplainedNode[];
  payload: Record<string, ExplainedNode>;
}

export interface RuleExplanation {
  rule: string;
  kind: string;
  status: RuleStatus;
  /** With `not-selected`: which test failed. */
  because?: NotSelectedReason | string[];
  /** With `error`: why the rule could not be evaluated. */
  message?: string;
  /** A rule evaluated per item or per bound field: the pointer of the one shown. */
  field?: string;
  /** Why it has its status, in one sentence: the explorer's words (ruleWords) as text. */
  summary: string;
  when?: ExplainedNode;
  assert?: ExplainedNode;
  assign?: ExplainedNode[];
  args?: Record<string, ExplainedNode>;
  commands?: CommandExplanation[];
}

/** What the wording reads of an explained rule: all of it but the summary, which is said from the rest. */
export type WordedRule = Omit<RuleExplanation, "summary">;

export type ResolutionRefusal =
  | "rule-unknown"
  | "no-finding"
  | "not-blocking"
  | "type-not-accepted"
  | "justification-missing"
  | "role-not-allowed";

export interface ResolutionExplanation {
  rule: JsonValue;
  type: JsonValue;
  applied: boolean;
  reason?: ResolutionRefusal;
}

export interface UnmatchedName {
  given: string;
  didYouMean?: string;
}

export interface Explanation {
  rules: RuleExplanation[];
  unmatched?: { entity?: UnmatchedName; operation?: UnmatchedName };
  resolutions: ResolutionExplanation[];
}
