import type { JsonObject, JsonValue } from "./json-value.ts";

/** Reading members of documents that passed the schema, without casts at every step. */
export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function objectAt(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}

export function listAt(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

export function stringAt(value: JsonValue | undefined): string {
  return typeof value === "string" ? value : "";
}

/** The value at a path of member names and item indexes; undefined where a member or item is missing. */
export function valueAtPath(value: JsonValue | undefined, path: readonly string[]): JsonValue | undefined {
  let current = value;
  for (const segment of path) {
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isJsonObject(current)) current = Object.hasOwn(current, segment) ? current[segment] : undefined;
    else return undefined;
  }
  return current;
}

/** Truthiness as the reference reads flags: null, false, 0, "" and empty containers are false. */
export function truthy(value: JsonValue | undefined): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isJsonObject(value)) return Object.keys(value).length > 0;
  return true;
}

/**
 * Sets an own member, so that `__proto__` stays data as JSON.parse makes it and never becomes the
 * object's prototype. Every other key can be assigned: `__proto__` is the only accessor that plain
 * objects inherit.
 */
export function setMember<Member>(object: { [key: string]: Member }, key: string, value: Member): void {
  if (key === "__proto__")
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}
