import { canonicalNumberText } from "../number/canonical-number.ts";
import type { JsonValue } from "./json-value.ts";
import { canonicalJson } from "./canonical-json.ts";

/**
 * How a value appears in a message, an idempotency key or the `text` operator (specification
 * 8.1): null is empty, numbers canonical, lists their rendered elements joined by ", ", objects
 * their canonical JSON. The value has already left the expression (numbers rounded).
 */
export function renderText(value: JsonValue): string {
  if (value === null) return "";
  switch (typeof value) {
    case "string":
      return value;
    case "boolean":
      return value ? "true" : "false";
    case "number":
      return canonicalNumberText(value);
  }
  if (Array.isArray(value)) return value.map(renderText).join(", ");
  return canonicalJson(value);
}
