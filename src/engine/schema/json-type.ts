import { isDecimal } from "../number/decimal.ts";
import { isNumberValue, isValueObject } from "../value/value-kind.ts";

/** The type names of JSON Schema's `type` keyword. */
export type JsonType = "null" | "boolean" | "object" | "array" | "number" | "integer" | "string";

export const JSON_TYPES: ReadonlySet<string> = new Set<JsonType>([
  "null",
  "boolean",
  "object",
  "array",
  "number",
  "integer",
  "string",
]);

/** Whether a value is of a JSON Schema type (an exact decimal is a number, an integer when whole). */
export function hasType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return isNumberValue(value);
    case "integer":
      return typeof value === "number" ? Number.isInteger(value) : isDecimal(value) && value.isInteger();
    case "object":
      return isValueObject(value);
    case "array":
      return Array.isArray(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
  }
}
