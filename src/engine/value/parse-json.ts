import type { JsonObject, JsonValue } from "./json-value.ts";

/** Why a JSON text with a number such as 1e999 is refused, in every host's words. */
export const NUMBER_TOO_LARGE = "a number is too large for a double";

export type ParsedJson =
  | { ok: true; value: JsonValue }
  | { ok: false; reason: "not-json" | "number-too-large"; message: string };

/**
 * JSON text to a value, refusing what JSON numbers cannot mean here: JavaScript reads `1e999` as
 * Infinity, but a number too large for a double is not accepted (specification 4.2 rule 1).
 */
export function parseJson(text: string): ParsedJson {
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    return {
      ok: false,
      reason: "not-json",
      message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (hasNonFiniteNumber(value)) return { ok: false, reason: "number-too-large", message: NUMBER_TOO_LARGE };
  return { ok: true, value };
}

/**
 * Whether a value holds NaN or an infinity; walks without recursion, so a deeply nested document
 * cannot exhaust the stack. Members are visited in place (`for...in` with own keys only, as
 * `Object.values` would give them) rather than copied into a list: this runs on every request.
 */
export function hasNonFiniteNumber(root: JsonValue): boolean {
  if (typeof root === "number") return !Number.isFinite(root);
  if (typeof root !== "object" || root === null) return false;
  const pending: (JsonObject | JsonValue[])[] = [root];
  while (pending.length > 0) {
    const value = pending.pop()!;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) if (nonFiniteOrPushed(value[index]!, pending)) return true;
    } else {
      for (const key in value) if (Object.hasOwn(value, key) && nonFiniteOrPushed(value[key]!, pending)) return true;
    }
  }
  return false;
}

/** Whether a member is a non-finite number; a list or object member is left for the walk. */
function nonFiniteOrPushed(member: JsonValue, pending: (JsonObject | JsonValue[])[]): boolean {
  if (typeof member === "number") return !Number.isFinite(member);
  if (typeof member === "object" && member !== null) pending.push(member);
  return false;
}
