import type { EvaluationResult } from "../engine/evaluation/evaluation-result.ts";
import type { JsonObject } from "../engine/value/json-value.ts";
import { maskInPlace, type RecordMask } from "./record-mask.ts";

/**
 * A decision record (DECISIONS.md, Extensions): which rules decided what, on which input. This is
 * the record as the evaluating thread writes it, without `time`, `level`, `msg` and `requestId`,
 * which the event loop puts first (see recordLine), and without its opening brace: `"ruleset":…,
 * "version", "checksum", "channel", "request", "decision", "findings": [{rule, code}], "effects": [{field, rule}],
 * "commands": [name], "masked"?}`.
 *
 * `received` is the request's JSON text as it came, when the request is a whole body (an item of
 * a batch has none). Without a mask the record carries that text itself: the request as received,
 * to the digit, and no second serialization of it on every evaluation. With a mask the record
 * carries the masked request serialized again, even when the mask found nothing: a text may hold
 * a member twice, and a masked value that JSON reading dropped must not reach the record either.
 * A mask changes `request` itself (see maskInPlace): make the record after everything else that
 * reads the request.
 */
export function decisionRecordJson(
  request: JsonObject,
  result: EvaluationResult,
  channel: string,
  mask: RecordMask,
  received?: string,
): string {
  const opening = recordOpening(result, channel);
  if (mask.pointers.length === 0)
    return `${opening}${received === undefined ? JSON.stringify(request) : oneLine(received)},${outcomeJson(result, [])}`;
  const masked = maskInPlace(request, mask);
  return `${opening}${JSON.stringify(request)},${outcomeJson(result, masked)}`;
}

/**
 * The record's line: `time`, `level`, `msg` and `requestId` first, then what the evaluating thread
 * wrote. `level` and `msg` make a record read as a log line (DECISIONS.md, Logs: every line has
 * `time`, `level`, `msg`): among the log lines on standard output `select(.msg == "decision")`
 * picks the records, and a filter on `level` does not take them for problems.
 */
export function recordLine(time: string, requestId: string, recordJson: string): string {
  return `${recordHead(time, requestId)}${recordJson}\n`;
}

/** The `msg` of a decision record, which tells it from the log lines beside it. */
export const DECISION_RECORD_MSG = "decision";

/** The start of a record's line, up to what the evaluating thread wrote (see recordLine). */
export function recordHead(time: string, requestId: string): string {
  return `{"time":"${time}","level":"info","msg":"${DECISION_RECORD_MSG}","requestId":${JSON.stringify(requestId)},`;
}

/**
 * JSON text on one line. A line break can only be white space between a JSON text's tokens (in a
 * string it is escaped), so a space in its place leaves the same value.
 */
function oneLine(json: string): string {
  return json.indexOf("\n") === -1 && json.indexOf("\r") === -1 ? json : json.replace(/[\r\n]/g, " ");
}

/** The members before the request, up to `"request":`: the same for every record of one ruleset version and channel. */
let lastOpening = { ruleset: "", version: "", checksum: "", channel: "", json: "" };

function recordOpening(result: EvaluationResult, channel: string): string {
  const last = lastOpening;
  if (
    last.checksum === result.checksum &&
    last.channel === channel &&
    last.ruleset === result.ruleset &&
    last.version === result.version
  )
    return last.json;
  const members = JSON.stringify({
    ruleset: result.ruleset,
    version: result.version,
    checksum: result.checksum,
    channel,
  });
  lastOpening = {
    ruleset: result.ruleset,
    version: result.version,
    checksum: result.checksum,
    channel,
    json: `${members.slice(1, -1)},"request":`,
  };
  return lastOpening.json;
}

/** The members after the request, with the closing brace. */
function outcomeJson(result: EvaluationResult, masked: readonly string[]): string {
  const outcome: Record<string, unknown> = {
    decision: result.decision,
    findings: result.findings.map((finding) => ({ rule: finding.rule, code: finding.code })),
    effects: result.effects.map((effect) => ({ field: effect.field, rule: effect.rule })),
    commands: result.commands.map((command) => command.name),
  };
  if (masked.length > 0) outcome.masked = masked;
  return JSON.stringify(outcome).slice(1);
}
