import type { PreparedRule } from "./prepared-rule.ts";

/**
 * What an evaluation tells whoever explains it (explanation/explanation-recorder.ts). Plain
 * evaluations have no observer: each hook is one check of `undefined`.
 */
export interface EvaluationObserver {
  /** A selected rule starts: once, also when it runs per item or per bound field. */
  ruleStarted(rule: PreparedRule): void;
  /**
   * A rule that runs per item or per bound field starts on the one at `pointer` (`last`: no other
   * follows). True asks for it to be run again, between `retracing` and the finding, if it fires
   * or fails: an observer that shows only the last or the first firing one need not trace the rest.
   */
  iterationStarted(rule: PreparedRule, pointer: string, last: boolean): boolean | undefined;
  /** The item or field whose `iterationStarted` asked for it is run again: it fired or failed. */
  retracing?(rule: PreparedRule): void;
  /** A rule's `when` was evaluated (once per item or field). */
  whenDecided(rule: PreparedRule, holds: boolean): void;
  /** The rule produced a finding, an effect or a command. */
  ruleFired(rule: PreparedRule): void;
  /** The rule failed closed; `detail` is its finding's `detail`. */
  ruleFailed(rule: PreparedRule, detail: string): void;
}
