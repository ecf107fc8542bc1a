import { EvaluationError, fail } from "../errors.ts";
import type { JsonValue } from "../value/json-value.ts";
import { toLeavingValue } from "../value/leaving-value.ts";
import { MAX_VALUE_DEPTH } from "../value/value-depth.ts";
import type { Value } from "../value/value-kind.ts";

/**
 * Custom operators (specification 4.6): synchronous, pure host functions of plain JSON values.
 * Names start with `x-`.
 */
export type CustomOperator = (...args: JsonValue[]) => unknown;
export type CustomOperators = ReadonlyMap<string, CustomOperator>;

export const NO_CUSTOM_OPERATORS: CustomOperators = new Map();

/** Turns a plain object of operators into the map the engine takes, refusing names without `x-`. */
export function customOperatorsFrom(
  record: Readonly<Record<string, CustomOperator>> | CustomOperators | undefined,
): CustomOperators {
  if (record === undefined) return NO_CUSTOM_OPERATORS;
  const entries = record instanceof Map ? [...record.entries()] : Object.entries(record);
  for (const [name, operator] of entries) {
    if (!name.startsWith("x-")) throw new TypeError(`custom operator "${name}" must have a name that starts with "x-"`);
    if (typeof operator !== "function") throw new TypeError(`custom operator "${name}" must be a function`);
  }
  return new Map(entries);
}

/**
 * Calls a host operator with arguments as they leave the expression (numbers rounded to 15
 * digits). A host that throws, or returns something that is not JSON (NaN, an infinity,
 * undefined, a function, a cycle), fails the rule closed.
 */
export function callCustomOperator(name: string, operator: CustomOperator | undefined, args: readonly Value[]): Value {
  if (operator === undefined) fail(`custom operator ${name} is not registered`);
  const plainArgs = args.map(toLeavingValue);
  let result: unknown;
  try {
    result = operator(...plainArgs);
  } catch (error) {
    fail(`custom operator ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const problem = jsonProblem(result, MAX_VALUE_DEPTH);
  if (problem !== undefined) throw new EvaluationError(`custom operator ${name} returned ${problem}`);
  return result as Value;
}

/** Why a host result is not a JSON value, or undefined when it is one. */
function jsonProblem(value: unknown, depthLeft: number): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : `${value}, which is not a JSON number`;
    case "object": {
      if (value === null) return undefined;
      if (depthLeft < 1) return `a value nested more than ${MAX_VALUE_DEPTH} deep`;
      if (Array.isArray(value)) {
        for (const item of value) {
          const problem = jsonProblem(item, depthLeft - 1);
          if (problem !== undefined) return problem;
        }
        return undefined;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return "an object that is not plain JSON";
      for (const item of Object.values(value)) {
        const problem = jsonProblem(item, depthLeft - 1);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    default:
      return `${typeof value}, which is not a JSON value`;
  }
}
