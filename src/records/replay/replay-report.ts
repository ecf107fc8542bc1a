import { ruleLines } from "../../cli/explanation-text.ts";
import type { ReplaySummary } from "./replay-summary.ts";

/** The summary for a terminal: the counts, the rules that changed, then each changed record. */
export function replayText(summary: ReplaySummary): string {
  const lines = [
    `records ${summary.records}, replayed ${summary.replayed}, unchanged ${summary.unchanged}`,
    `decisions allow -> deny ${summary.allowToDeny}, deny -> allow ${summary.denyToAllow}; findings, effects or commands changed ${summary.changed}`,
  ];
  const unreplayable = Object.entries(summary.unreplayable);
  if (unreplayable.length > 0) lines.push(`not replayed: ${unreplayable.map(([reason, count]) => `${reason} ${count}`).join(", ")}`);
  for (const [rule, counts] of Object.entries(summary.rules).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    lines.push(`rule ${rule}: now fires in ${counts.nowFires}, no longer fires in ${counts.noLongerFires}`);
  }
  for (const change of summary.changes) {
    const which = [...change.nowFires.map((rule) => `+${rule}`), ...change.noLongerFires.map((rule) => `-${rule}`)].join(" ");
    lines.push(`line ${change.line}${change.requestId === undefined ? "" : ` (${change.requestId})`} ${change.ruleset}: ${change.decision.before} -> ${change.decision.after}${which === "" ? "" : `  ${which}`}`);
    for (const rule of change.explained ?? []) for (const line of ruleLines(rule)) lines.push(`    ${line}`);
  }
  return lines.join("\n") + "\n";
}
