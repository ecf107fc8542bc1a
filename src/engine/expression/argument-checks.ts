import { fail } from "../errors.ts";
import type { NumberValue } from "../number/decimal.ts";
import { isWhole, toIndex } from "../number/arithmetic.ts";
import { isNumberValue, typeName, type Value } from "../value/value-kind.ts";

/** Argument type checks: no implicit coercion (specification 4.1 rule 1). */

export function expectBoolean(value: Value, operator: string): boolean {
  if (typeof value !== "boolean") fail(`${operator} expects a boolean, got ${typeName(value)}`);
  return value;
}

export function expectNumber(value: Value, operator: string): NumberValue {
  if (!isNumberValue(value)) fail(`${operator} expects a number, got ${typeName(value)}`);
  return value;
}

export function expectString(value: Value, operator: string): string {
  if (typeof value !== "string") fail(`${operator} expects a string, got ${typeName(value)}`);
  return value;
}

/** A collection operand: a list, or null for an empty one. */
export function expectListOrNull(value: Value, operator: string): readonly Value[] {
  if (value === null) return [];
  if (!Array.isArray(value)) fail(`${operator} expects a list, got ${typeName(value)}`);
  return value;
}

/** A whole, non-negative number used as a position or a count. */
export function expectIndex(value: Value, operator: string, what: string): number {
  const n = expectNumber(value, operator);
  if (!isWhole(n) || (typeof n === "number" ? n < 0 : n.isNegative() && !n.isZero())) {
    fail(`${operator}: ${what} must be a whole number that is not negative`);
  }
  return toIndex(n);
}
