import { fail } from "../../errors.ts";
import { compilePattern, type CompiledPattern } from "../../pattern/pattern-matcher.ts";
import { codePointLength, codePointSlice } from "../../value/code-points.ts";
import { toLeavingValue } from "../../value/leaving-value.ts";
import { renderText } from "../../value/rendered-text.ts";
import { typeName } from "../../value/value-kind.ts";
import { expectIndex, expectString } from "../argument-checks.ts";
import type { OperatorDefinition } from "../prepared-node.ts";

/** String operators (specification 4.3). Lengths and positions count code points. */

const ASCII_UPPER = /[A-Z]/g;
const ASCII_LOWER = /[a-z]/g;
const EDGE_SPACE = /^[ \t\n\r]+|[ \t\n\r]+$/g;

function stringTest(name: string, holds: (subject: string, other: string) => boolean): OperatorDefinition {
  return {
    minArgs: 2,
    maxArgs: 2,
    build:
      ([left, right]) =>
      (scope, base) => {
        const subject = expectString(left!(scope, base), name);
        return holds(subject, expectString(right!(scope, base), name));
      },
  };
}

export const stringOperators: Record<string, OperatorDefinition> = {
  len: {
    minArgs: 1,
    maxArgs: 1,
    build:
      ([operand]) =>
      (scope, base) => {
        const value = operand!(scope, base);
        if (typeof value === "string") return codePointLength(value);
        if (Array.isArray(value)) return value.length;
        return fail(`len expects a string or a list, got ${typeName(value)}`);
      },
  },
  lower: {
    minArgs: 1,
    maxArgs: 1,
    build:
      ([a]) =>
      (scope, base) =>
        expectString(a!(scope, base), "lower").replace(ASCII_UPPER, (c) => c.toLowerCase()),
  },
  upper: {
    minArgs: 1,
    maxArgs: 1,
    build:
      ([a]) =>
      (scope, base) =>
        expectString(a!(scope, base), "upper").replace(ASCII_LOWER, (c) => c.toUpperCase()),
  },
  trim: {
    minArgs: 1,
    maxArgs: 1,
    build:
      ([a]) =>
      (scope, base) =>
        expectString(a!(scope, base), "trim").replace(EDGE_SPACE, ""),
  },
  concat: {
    minArgs: 0,
    maxArgs: Infinity,
    build: (args) => (scope, base) => {
      let joined = "";
      for (const arg of args) joined += expectString(arg(scope, base), "concat");
      return joined;
    },
  },
  substring: {
    minArgs: 2,
    maxArgs: 3,
    build:
      ([text, startArg, lengthArg]) =>
      (scope, base) => {
        const subject = expectString(text!(scope, base), "substring");
        const start = expectIndex(startArg!(scope, base), "substring", "start");
        const length = lengthArg ? expectIndex(lengthArg(scope, base), "substring", "length") : Infinity;
        return codePointSlice(subject, start, length);
      },
  },
  text: {
    minArgs: 1,
    maxArgs: 1,
    build:
      ([a]) =>
      (scope, base) =>
        renderText(toLeavingValue(a!(scope, base))),
  },
  matches: {
    minArgs: 2,
    maxArgs: 2,
    build: ([subjectArg, patternArg], site) => {
      // A literal pattern (the only kind a ruleset may hold) is compiled once, when the rule is
      // prepared; one that is refused is refused again, as an evaluation error, when it is used.
      const literal = site.rawArgs[1];
      let compiled: CompiledPattern | undefined;
      if (typeof literal === "string") {
        try {
          compiled = compilePattern(literal);
        } catch {
          compiled = undefined;
        }
      }
      return (scope, base) => {
        const subjectValue = subjectArg!(scope, base);
        const patternValue = patternArg!(scope, base);
        const pattern = expectString(patternValue, "matches");
        const matcher = typeof literal === "string" ? (compiled ??= compilePattern(pattern)) : compilePattern(pattern);
        return matcher.test(expectString(subjectValue, "matches"));
      };
    },
  },
  startsWith: stringTest("startsWith", (subject, prefix) => subject.startsWith(prefix)),
  endsWith: stringTest("endsWith", (subject, suffix) => subject.endsWith(suffix)),
  contains: stringTest("contains", (subject, part) => subject.includes(part)),
};
