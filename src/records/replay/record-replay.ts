import type { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import type { EvaluationResult } from "../../engine/evaluation/evaluation-result.ts";
import { RequestShapeError } from "../../engine/evaluation/request-shape.ts";
import { isJsonObject, listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { rulesReadingMasked } from "./masked-reads.ts";
import type { ReplaySummary, UnreplayableReason } from "./replay-summary.ts";

/** How records are replayed: the rulesets by id, and what to keep of each change. */
export interface ReplayOptions {
  readonly rulesets: ReadonlyMap<string, LoadedRuleset>;
  /** Only records of this ruleset are replayed; the others are not counted. */
  readonly ruleset?: string;
  /** Explain each rule whose outcome changed. */
  readonly explain?: boolean;
}

/**
 * Replays one line of a records file into the summary: the recorded request evaluated against the
 * given rules, its outcome compared with the recorded one. Returns false when the line was left
 * out by `--ruleset`.
 */
export function replayLine(text: string, line: number, options: ReplayOptions, summary: ReplaySummary): boolean {
  const record = readRecord(text);
  const rulesetId = typeof record?.ruleset === "string" ? record.ruleset : undefined;
  if (options.ruleset !== undefined && rulesetId !== options.ruleset) {
    if (record !== undefined && rulesetId !== undefined) return false;
  }
  summary.records++;
  const unreplayable = (reason: UnreplayableReason): true => {
    summary.unreplayable[reason] = (summary.unreplayable[reason] ?? 0) + 1;
    return true;
  };
  if (record === undefined || rulesetId === undefined || !isJsonObject(record.request) || typeof record.decision !== "string") return unreplayable("malformed");
  const ruleset = options.rulesets.get(rulesetId);
  if (ruleset === undefined) return unreplayable("ruleset-unknown");
  const channel = record.channel === "client" ? "client" : "server";
  let result: EvaluationResult;
  try {
    result = ruleset.evaluate(record.request, channel);
  } catch (error) {
    if (error instanceof RequestShapeError) return unreplayable("request-refused");
    throw error;
  }
  const before = firedRules(record);
  const after = firedRules(result as unknown as JsonObject);
  const nowFires = [...after].filter((rule) => !before.has(rule));
  const noLongerFires = [...before].filter((rule) => !after.has(rule));
  const decisionChanged = result.decision !== record.decision;
  const outcomeChanged = !sameOutcome(record, result as unknown as JsonObject);
  const changed = decisionChanged || outcomeChanged;
  // A changed outcome that rests on a masked member says nothing: the replay saw "***", not the value.
  const masked = listAt(record.masked).map(String);
  if (changed && masked.length > 0 && rulesReadingMasked(ruleset.manifest(channel), [...nowFires, ...noLongerFires], masked).length > 0) return unreplayable("masked-input");
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
  const explained = options.explain === true ? ruleset.evaluate(record.request, channel, { explain: "full" }).explanation!.rules.filter((rule) => differing.has(rule.rule)) : undefined;
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
  if (sameInOrder(listAt(record.findings), listAt(result.findings), "rule", "code") && sameInOrder(listAt(record.effects), listAt(result.effects), "field", "rule")) {
    const names = listAt(record.commands);
    const commands = listAt(result.commands);
    if (names.length === commands.length && names.every((name, index) => name === objectAt(commands[index]).name)) return true;
  }
  return sameSorted(record, result);
}

function sameInOrder(recorded: readonly JsonValue[], actual: readonly JsonValue[], first: string, second: string): boolean {
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
  const findings = (outcome: JsonObject): string[] => listAt(outcome.findings).map((finding) => `${stringAt(objectAt(finding).rule)}\u0000${stringAt(objectAt(finding).code)}`).sort();
  const effects = (outcome: JsonObject): string[] => listAt(outcome.effects).map((effect) => `${stringAt(objectAt(effect).field)}\u0000${stringAt(objectAt(effect).rule)}`).sort();
  const commands = (names: readonly JsonValue[]): string => names.map(String).join("\u0000");
  return (
    same(findings(record), findings(result)) &&
    same(effects(record), effects(result)) &&
    commands(listAt(record.commands)) === commands(listAt(result.commands).map((command) => objectAt(command).name ?? null))
  );
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
