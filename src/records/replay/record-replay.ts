import type { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import type { EvaluationResult } from "../../engine/evaluation/evaluation-result.ts";
import { RequestShapeError } from "../../engine/evaluation/request-shape.ts";
import { isJsonObject, listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { DECISION_RECORD_MSG } from "../decision-record.ts";
import { type MaskedReplay, withRecordedOutcomes, type MaskedRuleRefusal } from "./masked-replay.ts";
import type { ReplaySummary, UnreplayableReason } from "./replay-summary.ts";

/** How records are replayed: the rulesets by id, and what to keep of each change. */
export interface ReplayOptions {
  readonly rulesets: ReadonlyMap<string, LoadedRuleset>;
  /** How records with masked members are replayed (the rules that made the records, by checksum). */
  readonly masked: MaskedReplay;
  /** Only records of this ruleset are replayed; the others are not counted. */
  readonly ruleset?: string;
  /** Explain each rule whose outcome changed. */
  readonly explain?: boolean;
}

/**
 * Replays one line of a records file into the summary: the recorded request evaluated against the
 * given rules, its outcome compared with the recorded one. Returns false when the line was left
 * out by `--ruleset`, or is a log line.
 */
export function replayLine(text: string, line: number, options: ReplayOptions, summary: ReplaySummary): boolean {
  const record = readRecord(text);
  // Records on standard output come between the server's log lines, which are not records.
  if (record !== undefined && isLogLine(record)) {
    summary.logLines++;
    return false;
  }
  const rulesetId = typeof record?.ruleset === "string" ? record.ruleset : undefined;
  if (options.ruleset !== undefined && rulesetId !== options.ruleset) {
    if (record !== undefined && rulesetId !== undefined) return false;
  }
  summary.records++;
  const unreplayable = (reason: UnreplayableReason): true => {
    summary.unreplayable[reason] = (summary.unreplayable[reason] ?? 0) + 1;
    return true;
  };
  if (
    record === undefined ||
    rulesetId === undefined ||
    !isJsonObject(record.request) ||
    typeof record.decision !== "string"
  )
    return unreplayable("malformed");
  const ruleset = options.rulesets.get(rulesetId);
  if (ruleset === undefined) return unreplayable("ruleset-unknown");
  const channel = record.channel === "client" ? "client" : "server";
  // A masked member is never evaluated as data: the rules that read one do what the record says.
  const masked = listAt(record.masked).map(String);
  const plan =
    masked.length > 0 && ruleset.channels.includes(channel)
      ? options.masked.plan(record, ruleset, channel, masked)
      : undefined;
  if (plan !== undefined && "refused" in plan) return maskedInput(summary, plan.refused, unreplayable);
  const evaluating = plan?.ruleset ?? ruleset;
  let result: EvaluationResult;
  try {
    result = evaluating.evaluate(record.request, channel);
  } catch (error) {
    if (error instanceof RequestShapeError) return unreplayable("request-refused");
    throw error;
  }
  // An action of a denied record never ran: the record cannot say what it would send now.
  if (plan !== undefined && plan.unknownActions.length > 0 && result.decision === "allow") {
    return maskedInput(
      summary,
      plan.unknownActions.map((read) => ({ ...read, because: "outcome-not-recorded" })),
      unreplayable,
    );
  }
  const outcome =
    plan === undefined || plan.kept.size === 0
      ? (result as unknown as JsonObject)
      : withRecordedOutcomes(result as unknown as JsonObject, record, plan.kept);
  const before = firedRules(record);
  const after = firedRules(outcome);
  const nowFires = [...after].filter((rule) => !before.has(rule));
  const noLongerFires = [...before].filter((rule) => !after.has(rule));
  const decisionChanged = result.decision !== record.decision;
  const outcomeChanged = !sameOutcome(record, outcome);
  const changed = decisionChanged || outcomeChanged;
  summary.replayed++;
  if (!changed) {
    summary.unchanged++;
    return true;
  }
  if (decisionChanged && record.decision === "allow") summary.allowToDeny++;
  if (decisionChanged && record.decision === "deny") summary.denyToAllow++;
  if (outcomeChanged) summary.changed++;
  for (const rule of nowFires) (summary.rules[rule] ??= { nowFires: 0, noLongerFires: 0 }).nowFires++;
  for (const rule of noLongerFires) (summary.rules[rule] ??= { nowFires: 0, noLongerFires: 0 }).noLongerFires++;
  const differing = new Set([...nowFires, ...noLongerFires]);
  const explained =
    options.explain === true
      ? evaluating
          .evaluate(record.request, channel, { explain: "full" })
          .explanation!.rules.filter((rule) => differing.has(rule.rule))
      : undefined;
  summary.changes.push({
    line,
    ...(typeof record.requestId === "string" ? { requestId: record.requestId } : {}),
    ruleset: rulesetId,
    decision: { before: record.decision, after: result.decision },
    nowFires,
    noLongerFires,
    ...(explained === undefined ? {} : { explained }),
  });
  return true;
}

/** Counts a record left unreplayed because rules read a masked member, by rule, with the pointer and why. */
function maskedInput(
  summary: ReplaySummary,
  refused: readonly MaskedRuleRefusal[],
  unreplayable: (reason: UnreplayableReason) => true,
): true {
  for (const { rule, pointer, via, because } of refused) {
    const counted = (summary.maskedInput[rule] ??= { records: 0, pointers: [], because: [] });
    counted.records++;
    const shown = via === undefined ? pointer : `${pointer} (computed by ${via})`;
    if (!counted.pointers.includes(shown)) counted.pointers.push(shown);
    if (!counted.because.includes(because)) counted.because.push(because);
  }
  return unreplayable("masked-input");
}

/** A log line of the server: a `level` and a `msg` other than a decision record's. */
function isLogLine(line: JsonObject): boolean {
  return typeof line.level === "string" && typeof line.msg === "string" && line.msg !== DECISION_RECORD_MSG;
}

/** A record line as an object, or undefined when it is not one. Records are our own JSON: the platform's parser reads them fastest. */
function readRecord(text: string): JsonObject | undefined {
  try {
    const value = JSON.parse(text) as JsonValue;
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The rules that produced a finding or an effect. */
function firedRules(outcome: JsonObject): Set<string> {
  const rules = new Set<string>();
  for (const finding of listAt(outcome.findings)) rules.add(stringAt(objectAt(finding).rule));
  for (const effect of listAt(outcome.effects)) rules.add(stringAt(objectAt(effect).rule));
  return rules;
}

/**
 * Findings `{rule, code}`, effects `{field, rule}` and command names, as the record keeps them.
 * The same rules give them in the same order, so an equal outcome is found without sorting.
 */
function sameOutcome(record: JsonObject, result: JsonObject): boolean {
  if (
    sameInOrder(listAt(record.findings), listAt(result.findings), "rule", "code") &&
    sameInOrder(listAt(record.effects), listAt(result.effects), "field", "rule")
  ) {
    const names = listAt(record.commands);
    const commands = listAt(result.commands);
    if (names.length === commands.length && names.every((name, index) => name === objectAt(commands[index]).name))
      return true;
  }
  return sameSorted(record, result);
}

function sameInOrder(
  recorded: readonly JsonValue[],
  actual: readonly JsonValue[],
  first: string,
  second: string,
): boolean {
  if (recorded.length !== actual.length) return false;
  for (let index = 0; index < recorded.length; index++) {
    const a = objectAt(recorded[index]);
    const b = objectAt(actual[index]);
    if (a[first] !== b[first] || a[second] !== b[second]) return false;
  }
  return true;
}

/** The comparison whatever the order, for outcomes the quick one found different. */
function sameSorted(record: JsonObject, result: JsonObject): boolean {
  const findings = (outcome: JsonObject): string[] =>
    listAt(outcome.findings)
      .map((finding) => `${stringAt(objectAt(finding).rule)}\u0000${stringAt(objectAt(finding).code)}`)
      .sort();
  const effects = (outcome: JsonObject): string[] =>
    listAt(outcome.effects)
      .map((effect) => `${stringAt(objectAt(effect).field)}\u0000${stringAt(objectAt(effect).rule)}`)
      .sort();
  const commands = (names: readonly JsonValue[]): string => names.map(String).join("\u0000");
  return (
    same(findings(record), findings(result)) &&
    same(effects(record), effects(result)) &&
    commands(listAt(record.commands)) ===
      commands(listAt(result.commands).map((command) => objectAt(command).name ?? null))
  );
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
