import type { EvaluationResult } from "../engine/evaluation/evaluation-result.ts";
import type { JsonObject } from "../engine/value/json-value.ts";
import { maskInPlace, type RecordMask } from "./record-mask.ts";

/**
 * A decision record (DECISIONS.md, Extensions): which rules decided what, on which input. This is
 * the record as the evaluating thread makes it, without `time`, `level`, `msg` and `requestId`,
 * which recordLine puts first, and without its opening brace: `"ruleset":…, "version",
 * "checksum", "channel", "request", "decision", "findings": [{rule, code}], "effects": [{field,
 * rule}], "commands": [name], "masked"?}`.
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

/** The `msg` of a decision record, which tells it from the log lines beside it. */
export const DECISION_RECORD_MSG = "decision";

/**
 * The record's line, newline included: `time`, `level`, `msg`, `requestId` and (authenticated) `caller` first, then what
 * decisionRecordJson made. `level` and `msg` make a record read as a log line (DECISIONS.md, Logs:
 * every line has `time`, `level`, `msg`): among the log lines on standard output
 * `select(.msg == "decision")` picks the records, and a filter on `level` does not take them for
 * problems. The evaluating thread makes the whole line (with workers, the worker): the event loop
 * only writes it.
 */
/** The trace a record's request belongs to: the log line's `traceId` and `spanId`, so a record and its trace meet. */
export interface RecordTrace {
  readonly traceId: string;
  readonly spanId?: string;
}

export function recordLine(
  time: string,
  requestId: string,
  recordJson: string,
  caller?: string,
  trace?: RecordTrace,
): string {
  const asker = caller === undefined ? "" : `"caller":${JSON.stringify(caller)},`;
  const traced =
    trace === undefined
      ? ""
      : `"traceId":${JSON.stringify(trace.traceId)},${trace.spanId === undefined ? "" : `"spanId":${JSON.stringify(trace.spanId)},`}`;
  return `{"time":"${time}","level":"info","msg":"${DECISION_RECORD_MSG}","requestId":${JSON.stringify(requestId)},${asker}${traced}${recordJson}\n`;
}

/** The time written last, and the millisecond it is of: the records of one millisecond share it. */
let lastTime = { ms: Number.NaN, text: "" };

/** Now, as ISO 8601 text for a record's `time`: made once per millisecond rather than for every record. */
export function recordTime(): string {
  const now = Date.now();
  if (now !== lastTime.ms) lastTime = { ms: now, text: new Date(now).toISOString() };
  return lastTime.text;
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

/**
 * The members after the request, with the closing brace, written out here rather than built as
 * objects for JSON.stringify: this runs for every evaluation, and the strings in it (rule ids,
 * finding codes, effect fields) are the ruleset's own, each quoted once (see quoted).
 */
function outcomeJson(result: EvaluationResult, masked: readonly string[]): string {
  let json = `"decision":${quoted(result.decision)},"findings":[`;
  const { findings, effects, commands } = result;
  for (let index = 0; index < findings.length; index++) {
    const finding = findings[index]!;
    json += `${index === 0 ? "" : ","}{"rule":${quoted(finding.rule)},"code":${quoted(finding.code)}}`;
  }
  json += '],"effects":[';
  for (let index = 0; index < effects.length; index++) {
    const effect = effects[index]!;
    json += `${index === 0 ? "" : ","}{"field":${quoted(effect.field)},"rule":${quoted(effect.rule)}}`;
  }
  json += '],"commands":[';
  for (let index = 0; index < commands.length; index++) {
    // A command's name is any JSON value its rule computed: serialized each time, never kept.
    json += `${index === 0 ? "" : ","}${JSON.stringify(commands[index]!.name) ?? "null"}`;
  }
  return masked.length > 0 ? `${json}],"masked":${JSON.stringify(masked)}}` : `${json}]}`;
}

/**
 * Quoted strings kept, per thread: a ruleset has some dozens, a server of a thousand rulesets some
 * ten thousand. Past this many they are all forgotten and kept anew as records need them.
 */
const QUOTED_LIMIT = 16384;
const quotedStrings = new Map<string, string>();

/** A string of the ruleset's as JSON: looking it up costs less than serializing it on every record. */
function quoted(text: string): string {
  let json = quotedStrings.get(text);
  if (json === undefined) {
    if (quotedStrings.size >= QUOTED_LIMIT) quotedStrings.clear();
    json = JSON.stringify(text);
    quotedStrings.set(text, json);
  }
  return json;
}
