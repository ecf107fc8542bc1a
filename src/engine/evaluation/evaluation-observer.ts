import type { PreparedRule } from "./prepared-rule.ts";

/**
 * What an evaluation tells whoever explains it (explanation/explanation-recorder.ts). Plain
 * evaluations have no observer: each hook is one check of `undefined`.
 */
export interface EvaluationObserver {
  /** A selected rule starts: once, also when it runs per item or per bound field. */
  ruleStarted(rule: PreparedRule): void;
  /** A rule that runs per item or per bound field starts on the one at `pointer`. */
  iterationStarted(rule: PreparedRule, pointer: string): void;
  /** A rule's `when` was evaluated (once per item or field). */
  whenDecided(rule: PreparedRule, holds: boolean): void;
  /** The rule produced a finding, an effect or a command. */
  ruleFired(rule: PreparedRule): void;
  /** The rule failed closed; `detail` is its finding's `detail`. */
  ruleFailed(rule: PreparedRule, detail: string): void;
}
