import { compare } from "../number/arithmetic.ts";
import { readPath, preparePath } from "../expression/variable-reference.ts";
import { valuesEqual } from "../value/value-equality.ts";
import type { JsonValue } from "../value/json-value.ts";
import { isNumberValue, typeName, type Value } from "../value/value-kind.ts";
import type { PlanCondition, PlanOperand } from "./plan-condition.ts";
import { pointerKeys } from "./data-pointer.ts";

/**
 * Whether `data` meets a plan's condition: the meaning of the tree, in code. The differential
 * tests hold every translation (SQL, Prisma) to it, and it to evaluation.
 */
export function conditionHolds(condition: PlanCondition, data: JsonValue): boolean {
  return holds(condition, data);
}

function holds(condition: PlanCondition, data: Value): boolean {
  switch (condition.op) {
    case "and":
      return condition.args.every((arg) => holds(arg, data));
    case "or":
      return condition.args.some((arg) => holds(arg, data));
    case "not":
      return !holds(condition.arg, data);
    case "in": {
      const value = valueIn(data, condition.pointer);
      return value !== undefined && condition.values.some((candidate) => valuesEqual(value, candidate));
    }
    case "isNull": {
      const value = valueIn(data, condition.pointer);
      return value === undefined || value === null;
    }
    case "isType": {
      const value = valueIn(data, condition.pointer);
      return value !== undefined && value !== null && typeName(value) === condition.type;
    }
    default: {
      const left = operandValue(condition.left, data) ?? null;
      const right = operandValue(condition.right, data) ?? null;
      if (condition.op === "eq") return valuesEqual(left, right);
      if (!isNumberValue(left) || !isNumberValue(right)) return false;
      const order = compare(left, right);
      switch (condition.op) {
        case "lt":
          return order < 0;
        case "lte":
          return order <= 0;
        case "gt":
          return order > 0;
        case "gte":
          return order >= 0;
      }
    }
  }
}

function operandValue(operand: PlanOperand, data: Value): Value | undefined {
  return "pointer" in operand ? valueIn(data, operand.pointer) : operand.value;
}

/** The value at a pointer, undefined when the pointer does not resolve (evaluation reads that as null). */
export function valueAt(data: JsonValue, pointer: string): JsonValue | undefined {
  return valueIn(data, pointer) as JsonValue | undefined;
}

function valueIn(data: Value, pointer: string): Value | undefined {
  const keys = pointerKeys(pointer);
  if (keys.length === 0) return data;
  const parent = readPath(data, preparePath(keys.slice(0, -1)));
  const last = keys[keys.length - 1]!;
  if (parent === null || typeof parent !== "object") return undefined;
  const value = readPath(parent, preparePath([last]));
  if (value !== null) return value;
  // A null read is a null member, or none.
  if (Array.isArray(parent)) return /^[0-9]+$/.test(last) && Number(last) < parent.length ? null : undefined;
  return Object.hasOwn(parent, last) ? null : undefined;
}
