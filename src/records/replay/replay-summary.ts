import type { MaskedRuleRefusal } from "./masked-replay.ts";
import type { RuleExplanation } from "../../engine/explanation/explanation.ts";

/** Why a record could not be replayed; each is counted, none dropped in silence. */
export type UnreplayableReason = "malformed" | "ruleset-unknown" | "request-refused" | "masked-input";

/** One record whose outcome the rules now change. */
export interface ReplayChange {
  /** The record's line in the input, from 1. */
  readonly line: number;
  readonly requestId?: string;
  readonly ruleset: string;
  readonly decision: { readonly before: string; readonly after: string };
  readonly nowFires: readonly string[];
  readonly noLongerFires: readonly string[];
  /** With --explain: the explanation of each rule whose outcome changed. */
  readonly explained?: readonly RuleExplanation[];
}

/**
 * What a replay found (DECISIONS.md, Extensions): records read, replayed, unchanged; decisions
 * turned around; records whose findings, effects or commands changed; the records that could not
 * be replayed by reason; per rule, in how many records it would now fire and did not, or no
 * longer fires; and the changed records themselves.
 */
export interface ReplaySummary {
  records: number;
  /** Log lines of the server among the records (records written to standard output), skipped. */
  logLines: number;
  replayed: number;
  unchanged: number;
  allowToDeny: number;
  denyToAllow: number;
  changed: number;
  unreplayable: Partial<Record<UnreplayableReason, number>>;
  rules: Record<string, { nowFires: number; noLongerFires: number }>;
  /**
   * By rule, the records left unreplayed because the rule reads a masked member and cannot keep
   * its recorded outcome: how many, the masked pointers it reads, and why.
   */
  maskedInput: Record<string, { records: number; pointers: string[]; because: MaskedRuleRefusal["because"][] }>;
  changes: ReplayChange[];
}

export function emptySummary(): ReplaySummary {
  return {
    records: 0,
    logLines: 0,
    replayed: 0,
    unchanged: 0,
    allowToDeny: 0,
    denyToAllow: 0,
    changed: 0,
    unreplayable: {},
    rules: {},
    maskedInput: {},
    changes: [],
  };
}
