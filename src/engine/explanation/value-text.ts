import type { JsonValue } from "../value/json-value.ts";

/**
 * A value of an explanation as people read it: compact JSON, cut with "…" past `max` characters
 * (the whole value stays in the explanation's JSON).
 */
export function valueText(value: JsonValue, max = 120): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}
