import { canonicalNumberText } from "../number/canonical-number.ts";
import { isDecimal } from "../number/decimal.ts";
import type { Value } from "./value-kind.ts";

/** Strings that JSON.stringify writes as they are, between quotes: most of a ruleset's text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes
const NEEDS_ESCAPES = /["\\\u0000-\u001f\ud800-\udfff]/;

function stringText(text: string): string {
  return NEEDS_ESCAPES.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * Canonical JSON (specification section 6): members sorted by key in UTF-16 code unit order (the
 * order of JavaScript's default sort), no whitespace, the escapes JSON requires and no others,
 * numbers in plain decimal notation. The checksum of a ruleset is the SHA-256 of this text.
 * Built by concatenation, not from parts joined: JavaScript engines build long strings from
 * pieces cheaply, and a thousand rulesets are tens of megabytes of canonical text at start-up.
 */
export function canonicalJson(value: Value): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return stringText(value);
  if (typeof value === "number" || isDecimal(value)) return canonicalNumberText(value);
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) text += ",";
      text += canonicalJson(value[i]!);
    }
    return `${text}]`;
  }
  const keys = sortedKeys(value);
  let text = "{";
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) text += ",";
    text += `${stringText(keys[i]!)}:${canonicalJson(value[keys[i]!]!)}`;
  }
  return `${text}}`;
}

/**
 * An object's keys in UTF-16 code unit order. Most objects of a ruleset have a handful of keys, and
 * sorting them in place one by one costs a fraction of what Array.prototype.sort does for so few.
 */
export function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}
