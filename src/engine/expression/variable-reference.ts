import { isDecimal } from "../number/decimal.ts";
import type { Value } from "../value/value-kind.ts";
import {
  generatedScopeReader,
  generatedValueReader,
  type ScopeReader,
  type ValueReader,
} from "./generated-path-reader.ts";
import { isRootName, type RootName } from "./scope.ts";

/**
 * `{"var": "root.a.b"}` (specification 4.1 rule 2): a path that does not resolve, or a root that
 * does not exist, is null. In a list, a segment of ASCII digits is a decimal index (`01` is 1).
 * The path is split once, when the expression is prepared; with code generation, it is compiled
 * to a function of its own (generated-path-reader.ts).
 */
export interface PathSegment {
  readonly key: string;
  /** The list index the segment names, or -1 when it is not made of ASCII digits. */
  readonly index: number;
}

const ASCII_DIGITS = /^[0-9]+$/;

export function readVariable(path: string, codeGeneration: boolean): ScopeReader {
  const [rootName = "", ...rest] = path.split(".");
  if (!isRootName(rootName)) return () => null;
  const segments = preparePath(rest);
  if (segments.length === 0) return rootReader(rootName);
  return (codeGeneration ? generatedScopeReader(rootName, segments) : undefined) ?? pathReader(rootName, segments);
}

/** A reader of prepared segments below a value: a field pointer read from the working data. */
export function valueReader(segments: readonly PathSegment[], codeGeneration: boolean): ValueReader {
  return (codeGeneration ? generatedValueReader(segments) : undefined) ?? ((start) => readPath(start, segments));
}

/** Splits the keys of a path once into the segments readPath follows. */
export function preparePath(keys: readonly string[]): PathSegment[] {
  return keys.map((key) => ({ key, index: ASCII_DIGITS.test(key) ? Number(key) : -1 }));
}

/**
 * Reads a prepared path below a value; null when it does not resolve. Every variable read of every
 * rule comes here, so a member is looked up once: a value read through the prototype is either a
 * function (no JSON value is one) or the prototype itself under `__proto__`, and only those two
 * cases need the own-member check.
 */
export function readPath(start: Value, segments: readonly PathSegment[]): Value {
  let value: Value = start;
  for (let i = 0; i < segments.length; i++) {
    if (value === null || typeof value !== "object") return null;
    const segment = segments[i]!;
    if (Array.isArray(value)) {
      if (segment.index < 0 || segment.index >= value.length) return null;
      value = value[segment.index]!;
      continue;
    }
    if (isDecimal(value)) return null;
    const member: unknown = value[segment.key];
    if (member === undefined) return null;
    if ((typeof member === "function" || segment.key === "__proto__") && !Object.hasOwn(value, segment.key))
      return null;
    value = member as Value;
  }
  return value;
}

/** A root read straight from the scope, then the path: the most frequent node of every rule, so one call, not two. */
function pathReader(root: RootName, segments: readonly PathSegment[]): ScopeReader {
  switch (root) {
    case "data":
      return (scope) => readPath(scope.data, segments);
    case "original":
      return (scope) => readPath(scope.original, segments);
    case "actor":
      return (scope) => readPath(scope.actor, segments);
    case "ctx":
      return (scope) => readPath(scope.ctx, segments);
    case "params":
      return (scope) => readPath(scope.params, segments);
    case "item":
      return (scope) => readPath(scope.item, segments);
    case "value":
      return (scope) => readPath(scope.value, segments);
    case "field":
      return (scope) => readPath(scope.field, segments);
    case "arg":
      return (scope) => readPath(scope.arg, segments);
  }
}

function rootReader(root: RootName): ScopeReader {
  switch (root) {
    case "data":
      return (scope) => scope.data;
    case "original":
      return (scope) => scope.original;
    case "actor":
      return (scope) => scope.actor;
    case "ctx":
      return (scope) => scope.ctx;
    case "params":
      return (scope) => scope.params;
    case "item":
      return (scope) => scope.item;
    case "value":
      return (scope) => scope.value;
    case "field":
      return (scope) => scope.field;
    case "arg":
      return (scope) => scope.arg;
  }
}
