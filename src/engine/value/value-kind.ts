import { isDecimal, type NumberValue } from "../number/decimal.ts";

/**
 * A value inside an expression: JSON, except that a number may be an exact decimal
 * (../number/decimal.ts) and lists and objects may hold such numbers.
 */
export type Value = null | boolean | string | NumberValue | Value[] | ValueObject;
export interface ValueObject {
  [key: string]: Value;
}

/** The names `typeOf` returns (specification 4.3). */
export type TypeName = "null" | "boolean" | "number" | "string" | "list" | "object";

export function isNumberValue(value: unknown): value is NumberValue {
  return typeof value === "number" || isDecimal(value);
}

/** A JSON object (not a list, not null, not a decimal number). */
export function isValueObject(value: unknown): value is ValueObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isDecimal(value);
}

export function typeName(value: Value): TypeName {
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "number":
      return "number";
    case "string":
      return "string";
    default:
      if (value === null) return "null";
      if (Array.isArray(value)) return "list";
      return isDecimal(value) ? "number" : "object";
  }
}
