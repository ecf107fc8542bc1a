import { compare } from "../number/arithmetic.ts";
import type { NumberValue } from "../number/decimal.ts";
import { codePointLength } from "../value/code-points.ts";
import { valuesEqual } from "../value/value-equality.ts";
import type { Value } from "../value/value-kind.ts";
import { isMultipleOf } from "./decimal-multiple.ts";
import type { SchemaNode } from "./schema-graph.ts";

/**
 * What SchemaFit's closures and its generated code share: how deep into a value they look, the
 * signal that leaves the answer to the walk, and the checks of keywords that apply to one value.
 */

/** How deep into a value the walk and the quick checks go; deeper, nothing is checked (requests are limited to far less: value-depth.ts). */
export const MAX_DEPTH = 256;

/** Thrown (never an Error: no stack is taken) where only the walk can answer. */
export const UNDECIDED: unique symbol = Symbol("undecided");

/**
 * A node that checks its type and nothing else: a member or item under it is checked in place,
 * without a call (by the closures and by the generated code alike).
 */
export function checksOnlyType(node: SchemaNode): boolean {
  return (
    node.types !== undefined &&
    !node.rejectsAll &&
    node.ref === undefined &&
    node.allOf === undefined &&
    node.anyOf === undefined &&
    node.oneOf === undefined &&
    node.not === undefined &&
    !node.hasConst &&
    node.enumValues === undefined &&
    node.format === undefined &&
    node.pattern === undefined &&
    node.minLength === undefined &&
    node.maxLength === undefined &&
    node.minimum === undefined &&
    node.maximum === undefined &&
    node.exclusiveMinimum === undefined &&
    node.exclusiveMaximum === undefined &&
    node.multipleOf === undefined &&
    node.minItems === undefined &&
    node.maxItems === undefined &&
    !node.uniqueItems &&
    node.prefixItems === undefined &&
    node.items === undefined &&
    node.required === undefined &&
    node.minProperties === undefined &&
    node.maxProperties === undefined &&
    node.properties === undefined &&
    node.patternProperties === undefined &&
    node.additionalProperties === undefined
  );
}

/** `const` and `enum`, which apply to a value of any type. */
export function valueCheck(node: SchemaNode): ((value: unknown) => boolean) | undefined {
  const { hasConst, constValue, enumValues } = node;
  if (!hasConst && enumValues === undefined) return undefined;
  return (value) => {
    if (hasConst && !valuesEqual(value as Value, constValue)) return false;
    if (enumValues !== undefined) {
      for (let i = 0; i < enumValues.length; i++) if (valuesEqual(value as Value, enumValues[i]!)) return true;
      return false;
    }
    return true;
  };
}

export function stringCheck(node: SchemaNode): ((text: string) => boolean) | undefined {
  const { format, minLength, maxLength, pattern } = node;
  if (format === undefined && minLength === undefined && maxLength === undefined && pattern === undefined)
    return undefined;
  return (text) => {
    if (format !== undefined && !format.test(text)) return false;
    if (minLength !== undefined || maxLength !== undefined) {
      const length = codePointLength(text);
      if (minLength !== undefined && length < minLength) return false;
      if (maxLength !== undefined && length > maxLength) return false;
    }
    return pattern === undefined || pattern.test(text);
  };
}

export function numberCheck(node: SchemaNode): ((value: NumberValue) => boolean) | undefined {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = node;
  if (
    minimum === undefined &&
    maximum === undefined &&
    exclusiveMinimum === undefined &&
    exclusiveMaximum === undefined &&
    multipleOf === undefined
  )
    return undefined;
  return (value) =>
    (minimum === undefined || compare(value, minimum) >= 0) &&
    (exclusiveMinimum === undefined || compare(value, exclusiveMinimum) > 0) &&
    (maximum === undefined || compare(value, maximum) <= 0) &&
    (exclusiveMaximum === undefined || compare(value, exclusiveMaximum) < 0) &&
    (multipleOf === undefined || isMultipleOf(value, multipleOf));
}
