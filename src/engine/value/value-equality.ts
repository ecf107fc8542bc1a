import { compare } from "../number/arithmetic.ts";
import { isDecimal } from "../number/decimal.ts";
import { isNumberValue, type Value } from "./value-kind.ts";

/**
 * Deep equality of specification 4.1 rule 3: numbers compare numerically, lists element by
 * element, objects member by member in any order; values of different types are never equal.
 */
export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (typeof a === "number" || isDecimal(a)) return isNumberValue(b) && compare(a, b) === 0;
  if (typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!valuesEqual(a[i]!, b[i]!)) return false;
    return true;
  }
  if (Array.isArray(b) || isDecimal(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key) || !valuesEqual(a[key]!, b[key]!)) return false;
  }
  return true;
}
