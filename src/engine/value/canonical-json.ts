import { canonicalNumberText } from "../number/canonical-number.ts";
import { isDecimal } from "../number/decimal.ts";
import type { Value } from "./value-kind.ts";

/**
 * Canonical JSON (specification section 6): members sorted by key in UTF-16 code unit order (the
 * order of JavaScript's default sort), no whitespace, the escapes JSON requires and no others,
 * numbers in plain decimal notation. The checksum of a ruleset is the SHA-256 of this text.
 */
export function canonicalJson(value: Value): string {
  const parts: string[] = [];
  appendCanonical(value, parts);
  return parts.join("");
}

function appendCanonical(value: Value, parts: string[]): void {
  if (value === null) parts.push("null");
  else if (typeof value === "boolean") parts.push(value ? "true" : "false");
  else if (typeof value === "string") parts.push(JSON.stringify(value));
  else if (typeof value === "number" || isDecimal(value)) parts.push(canonicalNumberText(value));
  else if (Array.isArray(value)) {
    parts.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) parts.push(",");
      appendCanonical(value[i]!, parts);
    }
    parts.push("]");
  } else {
    const keys = Object.keys(value).sort();
    parts.push("{");
    for (let i = 0; i < keys.length; i++) {
      if (i > 0) parts.push(",");
      parts.push(JSON.stringify(keys[i]), ":");
      appendCanonical(value[keys[i]!]!, parts);
    }
    parts.push("}");
  }
}
