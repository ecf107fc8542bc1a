import type { OperatorDefinition } from "../prepared-node.ts";
import { expectBoolean } from "../argument-checks.ts";

/** `and`, `or`, `not`, `if`, `coalesce` (specification 4.3). The lazy ones skip what they need not read. */
export const logicOperators: Record<string, OperatorDefinition> = {
  and: {
    minArgs: 0,
    maxArgs: Infinity,
    build: (args) => (scope, base) => {
      for (const arg of args) if (!expectBoolean(arg(scope, base), "and")) return false;
      return true;
    },
  },
  or: {
    minArgs: 0,
    maxArgs: Infinity,
    build: (args) => (scope, base) => {
      for (const arg of args) if (expectBoolean(arg(scope, base), "or")) return true;
      return false;
    },
  },
  not: {
    minArgs: 1,
    maxArgs: 1,
    build:
      ([operand]) =>
      (scope, base) =>
        !expectBoolean(operand!(scope, base), "not"),
  },
  if: {
    minArgs: 3,
    maxArgs: 3,
    build:
      ([condition, then, otherwise]) =>
      (scope, base) =>
        expectBoolean(condition!(scope, base), "if") ? then!(scope, base) : otherwise!(scope, base),
  },
  coalesce: {
    minArgs: 0,
    maxArgs: Infinity,
    build: (args) => (scope, base) => {
      for (const arg of args) {
        const value = arg(scope, base);
        if (value !== null) return value;
      }
      return null;
    },
  },
};
