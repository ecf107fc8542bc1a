import { ruleLines } from "../../engine/explanation/explanation-text.ts";
import type { MaskedRuleRefusal } from "./masked-replay.ts";
import type { ReplaySummary } from "./replay-summary.ts";

/** Why a rule that reads a masked member could not keep its recorded outcome, for people. */
const MASKED_REFUSALS: Record<MaskedRuleRefusal["because"], string> = {
  "rule-changed": "the rule changed since the record was made",
  "input-changed": "a rule that changed computes what it reads",
  "recorded-rules-unknown": "the rules that made the record are not known (give them with --recorded-rules)",
  "outcome-not-recorded": "the record was denied, so it does not say what this action sends",
};

/** The summary for a terminal: the counts, the rules that changed, then each changed record. */
export function replayText(summary: ReplaySummary): string {
  const lines = [
    `records ${summary.records}${summary.logLines > 0 ? ` (log lines skipped: ${summary.logLines})` : ""}, replayed ${summary.replayed}, unchanged ${summary.unchanged}`,
    `decisions allow -> deny ${summary.allowToDeny}, deny -> allow ${summary.denyToAllow}; findings, effects or commands changed ${summary.changed}`,
  ];
  const unreplayable = Object.entries(summary.unreplayable);
  if (unreplayable.length > 0)
    lines.push(`not replayed: ${unreplayable.map(([reason, count]) => `${reason} ${count}`).join(", ")}`);
  for (const [rule, counted] of Object.entries(summary.maskedInput).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    lines.push(
      `masked input: rule ${rule} reads masked ${counted.pointers.join(", ")} in ${counted.records}: ${counted.because.map((because) => MASKED_REFUSALS[because]).join("; ")}`,
    );
  }
  for (const [rule, counts] of Object.entries(summary.rules).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    lines.push(`rule ${rule}: now fires in ${counts.nowFires}, no longer fires in ${counts.noLongerFires}`);
  }
  for (const change of summary.changes) {
    const which = [
      ...change.nowFires.map((rule) => `+${rule}`),
      ...change.noLongerFires.map((rule) => `-${rule}`),
    ].join(" ");
    lines.push(
      `line ${change.line}${change.requestId === undefined ? "" : ` (${change.requestId})`} ${change.ruleset}: ${change.decision.before} -> ${change.decision.after}${which === "" ? "" : `  ${which}`}`,
    );
    for (const rule of change.explained ?? []) for (const line of ruleLines(rule)) lines.push(`    ${line}`);
  }
  return `${lines.join("\n")}\n`;
}
