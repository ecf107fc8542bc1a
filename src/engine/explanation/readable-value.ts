import type { JsonValue } from "../value/json-value.ts";
import { toLeavingValue } from "../value/leaving-value.ts";
import { isDecimal } from "../number/decimal.ts";
import { toWireNumber } from "../number/wire-number.ts";
import type { Value } from "../value/value-kind.ts";

const MAX_STRING = 200;
const MAX_MEMBERS = 50;
/** Deeper than this, a list or object is shown as cut: explanations are read by people. */
const MAX_DEPTH = 8;

/**
 * Whether a value is shown exactly as it is: null, a boolean, a string of at most 200 characters
 * or a whole number below 10^15 (what leaving the engine keeps as it is). Most values are such,
 * and need neither a copy nor a cut.
 */
export function isShownAsIs(value: Value): boolean {
  if (typeof value === "boolean" || value === null) return true;
  if (typeof value === "string") return value.length <= MAX_STRING;
  // -0 leaves as 0.
  return (
    typeof value === "number" &&
    Number.isInteger(value) &&
    value < 1e15 &&
    value > -1e15 &&
    (value !== 0 || 1 / value > 0)
  );
}

/**
 * A value as it leaves the engine, kept readable: strings past 200 characters and lists or
 * objects past 50 members (or nested past 8) are cut, and `cut.truncated` says so. Containers are
 * copied, because the working data an expression read is changed by later rules. Throws, as
 * leaving the engine does, for a number too large to leave, even one in a part that is cut.
 */
export function readableValue(value: Value, cut: { truncated: boolean }): JsonValue {
  return readableCopy(value, cut, 0);
}

function readableCopy(value: Value, cut: { truncated: boolean }, depth: number): JsonValue {
  if (typeof value === "string") {
    if (value.length <= MAX_STRING) return value;
    cut.truncated = true;
    return value.slice(0, MAX_STRING);
  }
  if (value === null || typeof value === "boolean") return value;
  if (typeof value === "number" || isDecimal(value)) return toWireNumber(value);
  if (depth >= MAX_DEPTH) {
    toLeavingValue(value);
    cut.truncated = true;
    return Array.isArray(value) ? [] : {};
  }
  if (Array.isArray(value)) {
    if (value.length <= MAX_MEMBERS) {
      // Copied whole (one native copy), then the members not shown as they are replaced.
      const copy = value.slice() as JsonValue[];
      for (let i = 0; i < copy.length; i++)
        if (!isShownAsIs(copy[i]!)) copy[i] = readableCopy(value[i]!, cut, depth + 1);
      return copy;
    }
    for (let i = MAX_MEMBERS; i < value.length; i++) toLeavingValue(value[i]!);
    cut.truncated = true;
    const copy = new Array<JsonValue>(MAX_MEMBERS);
    for (let i = 0; i < MAX_MEMBERS; i++) copy[i] = readableCopy(value[i]!, cut, depth + 1);
    return copy;
  }
  const keys = Object.keys(value);
  if (keys.length <= MAX_MEMBERS) {
    // Spreading copies the members in order as own data members (`__proto__` included) in one native step.
    const copy: Record<string, JsonValue> = { ...(value as Record<string, JsonValue>) };
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const member = value[key]!;
      if (isShownAsIs(member)) continue;
      const shown = readableCopy(member, cut, depth + 1);
      if (key === "__proto__")
        Object.defineProperty(copy, key, { value: shown, enumerable: true, writable: true, configurable: true });
      else copy[key] = shown;
    }
    return copy;
  }
  for (let i = MAX_MEMBERS; i < keys.length; i++) toLeavingValue(value[keys[i]!]!);
  cut.truncated = true;
  // No prototype: a member named __proto__ stays a member.
  const copy: Record<string, JsonValue> = Object.create(null);
  for (let i = 0; i < MAX_MEMBERS; i++) copy[keys[i]!] = readableCopy(value[keys[i]!]!, cut, depth + 1);
  return copy;
}
