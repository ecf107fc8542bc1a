import { isWhole } from "../../engine/number/arithmetic.ts";
import type { JsonValue } from "../../engine/value/json-value.ts";

/** Whether a value fits a param's declared type (specification section 5, steps 3 and 6). */
export function fitsParamType(type: JsonValue | undefined, value: JsonValue | undefined): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "integer":
      return typeof value === "number" && isWhole(value);
    case "boolean":
      return typeof value === "boolean";
    case "stringList":
      return Array.isArray(value) && value.every((item) => typeof item === "string");
    case "numberList":
      return Array.isArray(value) && value.every((item) => typeof item === "number");
    default:
      return false;
  }
}
