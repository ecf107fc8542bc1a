import { fail } from "../../errors.ts";
import { compare } from "../../number/arithmetic.ts";
import { valuesEqual } from "../../value/value-equality.ts";
import { isValueObject, typeName } from "../../value/value-kind.ts";
import { expectNumber } from "../argument-checks.ts";
import type { OperatorDefinition } from "../prepared-node.ts";

/** Equality, ordering, membership and the tests on a single value (specification 4.3). */

function ordering(name: string, holds: (order: number) => boolean): OperatorDefinition {
  return {
    minArgs: 2,
    maxArgs: 2,
    build:
      ([left, right]) =>
      (scope, base) => {
        const a = expectNumber(left!(scope, base), name);
        const b = expectNumber(right!(scope, base), name);
        return holds(compare(a, b));
      },
  };
}

export const comparisonOperators: Record<string, OperatorDefinition> = {
  eq: {
    minArgs: 2,
    maxArgs: 2,
    build:
      ([a, b]) =>
      (scope, base) =>
        valuesEqual(a!(scope, base), b!(scope, base)),
  },
  ne: {
    minArgs: 2,
    maxArgs: 2,
    build:
      ([a, b]) =>
      (scope, base) =>
        !valuesEqual(a!(scope, base), b!(scope, base)),
  },
  lt: ordering("lt", (order) => order < 0),
  lte: ordering("lte", (order) => order <= 0),
  gt: ordering("gt", (order) => order > 0),
  gte: ordering("gte", (order) => order >= 0),
  between: {
    minArgs: 3,
    maxArgs: 3,
    build:
      ([value, low, high]) =>
      (scope, base) => {
        const x = expectNumber(value!(scope, base), "between");
        const lo = expectNumber(low!(scope, base), "between");
        const hi = expectNumber(high!(scope, base), "between");
        return compare(lo, x) <= 0 && compare(x, hi) <= 0;
      },
  },
  in: {
    minArgs: 2,
    maxArgs: 2,
    build:
      ([needle, haystack]) =>
      (scope, base) => {
        const value = needle!(scope, base);
        const list = haystack!(scope, base);
        if (!Array.isArray(list)) fail(`in expects a list as its second argument, got ${typeName(list)}`);
        for (const item of list) if (valuesEqual(value, item)) return true;
        return false;
      },
  },
  exists: {
    minArgs: 1,
    maxArgs: 1,
    build:
      ([a]) =>
      (scope, base) =>
        a!(scope, base) !== null,
  },
  empty: {
    minArgs: 1,
    maxArgs: 1,
    build:
      ([operand]) =>
      (scope, base) => {
        const value = operand!(scope, base);
        if (value === null || value === "") return true;
        if (Array.isArray(value)) return value.length === 0;
        if (isValueObject(value)) {
          for (const _ in value) return false;
          return true;
        }
        return false;
      },
  },
  typeOf: {
    minArgs: 1,
    maxArgs: 1,
    build:
      ([a]) =>
      (scope, base) =>
        typeName(a!(scope, base)),
  },
};
