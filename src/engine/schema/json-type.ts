/** The type names of JSON Schema's `type` keyword. */
export type JsonType = "null" | "boolean" | "object" | "array" | "number" | "integer" | "string";

export const JSON_TYPES: ReadonlySet<string> = new Set<JsonType>(["null", "boolean", "object", "array", "number", "integer", "string"]);
