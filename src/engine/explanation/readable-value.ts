import type { JsonValue } from "../value/json-value.ts";
import { toLeavingValue } from "../value/leaving-value.ts";
import { toWireNumber } from "../number/wire-number.ts";
import type { Value } from "../value/value-kind.ts";

const MAX_STRING = 200;
const MAX_MEMBERS = 50;
/** Deeper than this, a list or object is shown as cut: explanations are read by people. */
const MAX_DEPTH = 8;

/**
 * Stores on a trace record a copy of a value as it leaves the engine, kept readable: strings past
 * 200 characters and lists or objects past 50 members are cut, and `truncated` says so. A copy,
 * because the working data an expression read is changed by later rules. Most values are null,
 * booleans, short strings or plain numbers: nothing to copy or cut.
 */
export function recordReadable(record: { value: JsonValue | undefined; truncated: boolean }, value: Value): void {
  if (value === null || typeof value === "boolean" || (typeof value === "string" && value.length <= MAX_STRING)) record.value = value;
  else if (typeof value === "number") record.value = toWireNumber(value);
  else record.value = readableCopy(toLeavingValue(value), record, 0);
}

function readableCopy(value: JsonValue, state: { truncated: boolean }, depth: number): JsonValue {
  if (typeof value === "string") {
    if (value.length <= MAX_STRING) return value;
    state.truncated = true;
    return value.slice(0, MAX_STRING);
  }
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) {
    state.truncated = true;
    return Array.isArray(value) ? [] : {};
  }
  if (Array.isArray(value)) {
    if (value.length > MAX_MEMBERS) state.truncated = true;
    return value.slice(0, MAX_MEMBERS).map((item) => readableCopy(item, state, depth + 1));
  }
  const keys = Object.keys(value);
  if (keys.length > MAX_MEMBERS) state.truncated = true;
  // No prototype: a member named __proto__ stays a member.
  const copy: Record<string, JsonValue> = Object.create(null);
  for (const key of keys.slice(0, MAX_MEMBERS)) copy[key] = readableCopy(value[key]!, state, depth + 1);
  return copy;
}
