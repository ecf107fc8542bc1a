import { isJsonObject, listAt, objectAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { valuesEqual } from "../../engine/value/value-equality.ts";

/**
 * A failed golden test's expectation against what came out, as a line diff: `- ` lines are
 * expected only, `+ ` lines actual only, `  ` lines both. Only what the test compares is shown:
 * the decision, the findings (with the members the expectation names), the expected effects
 * beside the actual effect of the same field, and the command names when the test expects them.
 */
export function goldenDiff(result: JsonObject, expect: JsonObject): string[] {
  return lineDiff(expectedLines(expect), actualLines(result, expect));
}

function expectedLines(expect: JsonObject): string[] {
  const lines = [`decision: ${JSON.stringify(expect.decision ?? null)}`, "findings:"];
  for (const finding of listAt(expect.findings)) lines.push(`  ${JSON.stringify(finding)}`);
  if (listAt(expect.effects).length > 0) {
    lines.push("effects:");
    for (const effect of listAt(expect.effects)) lines.push(`  ${JSON.stringify(effect)}`);
  }
  if (Object.hasOwn(expect, "commands")) lines.push(`commands: ${JSON.stringify(expect.commands)}`);
  return lines;
}

function actualLines(result: JsonObject, expect: JsonObject): string[] {
  const lines = [`decision: ${JSON.stringify(result.decision ?? null)}`, "findings:"];
  const expected = listAt(expect.findings).filter(isJsonObject);
  const keys =
    expected.length === 0 ? ["rule", "code"] : [...new Set(expected.flatMap((finding) => Object.keys(finding)))];
  // The findings that match an expectation first, in its order, so that equal lines line up.
  const actual = listAt(result.findings).filter(isJsonObject);
  const ordered: JsonObject[] = [];
  for (const wanted of expected) {
    const match = actual.find((finding) => !ordered.includes(finding) && matches(finding, wanted));
    if (match !== undefined) ordered.push(match);
  }
  for (const finding of actual) if (!ordered.includes(finding)) ordered.push(finding);
  for (const finding of ordered) lines.push(`  ${JSON.stringify(project(finding, keys))}`);
  const expectedEffects = listAt(expect.effects).filter(isJsonObject);
  if (expectedEffects.length > 0) {
    lines.push("effects:");
    // Effects are expected to be present, not to be all: beside each, the actual effect of its field.
    for (const wanted of expectedEffects) {
      const sameField = listAt(result.effects)
        .filter(isJsonObject)
        .filter((effect) => valuesEqual(effect.field ?? null, wanted.field ?? null));
      const shown = sameField.find((effect) => matches(effect, wanted)) ?? sameField[0];
      if (shown !== undefined) lines.push(`  ${JSON.stringify(project(shown, Object.keys(wanted)))}`);
    }
  }
  if (Object.hasOwn(expect, "commands"))
    lines.push(`commands: ${JSON.stringify(listAt(result.commands).map((command) => objectAt(command).name ?? null))}`);
  return lines;
}

function matches(actual: JsonObject, wanted: JsonObject): boolean {
  return Object.entries(wanted).every(([key, value]) => Object.hasOwn(actual, key) && valuesEqual(actual[key]!, value));
}

/** The members of `value` named in `keys`, in that order. */
function project(value: JsonObject, keys: readonly string[]): JsonObject {
  const projected: JsonObject = {};
  for (const key of keys) if (Object.hasOwn(value, key)) projected[key] = value[key] as JsonValue;
  return projected;
}

/** The shortest edit from `before` to `after` (longest common subsequence; the lists are short). */
function lineDiff(before: readonly string[], after: readonly string[]): string[] {
  const common: number[][] = Array.from({ length: before.length + 1 }, () =>
    new Array<number>(after.length + 1).fill(0),
  );
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      common[i]![j] =
        before[i] === after[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const lines: string[] = [];
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && before[i] === after[j]) {
      lines.push(`  ${before[i++]}`);
      j++;
    } else if (i < before.length && (j === after.length || common[i + 1]![j]! >= common[i]![j + 1]!))
      lines.push(`- ${before[i++]}`);
    else lines.push(`+ ${after[j++]}`);
  }
  return lines;
}
