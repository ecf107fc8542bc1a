import type { EvaluationResult } from "../engine/evaluation/evaluation-result.ts";
import type { JsonObject } from "../engine/value/json-value.ts";
import { maskRequest, type RecordMask } from "./record-mask.ts";

/**
 * A decision record (DECISIONS.md, Extensions): which rules decided what, on which input. This is
 * the record as the evaluating thread writes it, without `time` and `requestId`, which the event
 * loop puts first (see recordLine), and without its opening brace: `"ruleset":…, "version", "checksum",
 * "channel", "request", "decision", "findings": [{rule, code}], "effects": [{field, rule}],
 * "commands": [name], "masked"?}`.
 */
export function decisionRecordJson(request: JsonObject, result: EvaluationResult, channel: string, mask: RecordMask): string {
  const masked = mask.pointers.length === 0 ? { request, masked: [] } : maskRequest(request, mask);
  const record: Record<string, unknown> = {
    ruleset: result.ruleset,
    version: result.version,
    checksum: result.checksum,
    channel,
    request: masked.request,
    decision: result.decision,
    findings: result.findings.map((finding) => ({ rule: finding.rule, code: finding.code })),
    effects: result.effects.map((effect) => ({ field: effect.field, rule: effect.rule })),
    commands: result.commands.map((command) => command.name),
  };
  if (masked.masked.length > 0) record.masked = masked.masked;
  // One serialization of the whole object is the platform's fastest path; the brace is left to recordLine.
  return JSON.stringify(record).slice(1);
}

/** The record's line: `time` and `requestId` first, then what the evaluating thread wrote. */
export function recordLine(time: string, requestId: string, recordJson: string): string {
  return `${recordHead(time, requestId)}${recordJson}\n`;
}

/** The start of a record's line, up to what the evaluating thread wrote (see recordLine). */
export function recordHead(time: string, requestId: string): string {
  return `{"time":"${time}","requestId":${JSON.stringify(requestId)},`;
}
