import { isDecimal } from "../number/decimal.ts";
import { toWireNumber } from "../number/wire-number.ts";
import type { JsonObject, JsonValue } from "./json-value.ts";
import type { Value } from "./value-kind.ts";

/**
 * A value as it leaves the engine (specification 4.2 rule 3): every number, computed or passed
 * through, rounded to 15 significant digits. Containers are copied only when something inside
 * them changes, so passing request data through costs a walk and no allocation.
 */
export function toLeavingValue(value: Value): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number" || isDecimal(value)) return toWireNumber(value);
  if (Array.isArray(value)) {
    let copy: JsonValue[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = value[i]!;
      const leaving = toLeavingValue(item);
      if (copy === undefined && leaving !== item) copy = value.slice(0, i) as JsonValue[];
      if (copy !== undefined) copy.push(leaving);
    }
    return copy ?? (value as JsonValue[]);
  }
  let copy: JsonObject | undefined;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const item = value[key]!;
    const leaving = toLeavingValue(item);
    if (copy === undefined && leaving !== item) {
      copy = Object.create(null) as JsonObject;
      for (let j = 0; j < i; j++) copy[keys[j]!] = value[keys[j]!] as JsonValue;
    }
    if (copy !== undefined) copy[key] = leaving;
  }
  return copy ?? (value as JsonObject);
}
