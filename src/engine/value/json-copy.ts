import type { JsonObject, JsonValue } from "./json-value.ts";

/**
 * A deep copy of a JSON value. Several times faster than structuredClone, which serializes: a
 * child ruleset copies its parent's resolution, and a thousand children of one parent did so for
 * a second of start-up. A `__proto__` member stays a member.
 */
export function copyJson<Value extends JsonValue>(value: Value): Value {
  return copy(value) as Value;
}

function copy(value: JsonValue): JsonValue {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const items: JsonValue[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) items[index] = copy(value[index]!);
    return items;
  }
  const members: JsonObject = {};
  for (const key of Object.keys(value)) {
    if (key === "__proto__")
      Object.defineProperty(members, key, {
        value: copy(value[key]!),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else members[key] = copy(value[key]!);
  }
  return members;
}
