import type { JsonValue } from "../../engine/value/json-value.ts";
import type { ValueKind } from "./schema-types.ts";

/*
 * What the static warnings (check-warnings.ts) hold an expression's arguments to: the kind each
 * argument of a core operator and each kind of parameter must have, and how a message names kinds,
 * suggests the literal meant and lists an enum's values.
 */

/** What an argument must be: the kinds accepted and how a message says so. */
export interface Expected {
  readonly kinds: readonly ValueKind[];
  readonly words: string;
}

const NUMBER: Expected = { kinds: ["number"], words: "a number" };
const STRING: Expected = { kinds: ["string"], words: "a string" };
const BOOLEAN: Expected = { kinds: ["boolean"], words: "a boolean" };
const LIST: Expected = { kinds: ["list"], words: "a list" };
const DATE: Expected = { kinds: ["string"], words: "a date (a string)" };

/** The kind each argument of a core operator must have (specification 4.3), or undefined for any. */
export function expectedArgument(op: string, index: number): Expected | undefined {
  switch (op) {
    case "lt":
    case "lte":
    case "gt":
    case "gte":
    case "between":
    case "add":
    case "sub":
    case "mul":
    case "div":
    case "mod":
    case "abs":
    case "min":
    case "max":
    case "round":
      return NUMBER;
    case "lower":
    case "upper":
    case "trim":
    case "concat":
    case "matches":
    case "startsWith":
    case "endsWith":
    case "contains":
      return STRING;
    case "substring":
      return index === 0 ? STRING : NUMBER;
    case "len":
      return { kinds: ["string", "list"], words: "a string or a list" };
    case "daysBetween":
    case "yearsBetween":
      return DATE;
    case "and":
    case "or":
    case "not":
      return BOOLEAN;
    case "if":
      return index === 0 ? { ...BOOLEAN, words: "a boolean as its condition" } : undefined;
    case "in":
      return index === 1 ? { ...LIST, words: "a list as its second argument" } : undefined;
    case "all":
    case "some":
    case "none":
    case "filter":
      return index === 0 ? LIST : { ...BOOLEAN, words: "a boolean from its predicate" };
    case "sum":
      return index === 0 ? LIST : { ...NUMBER, words: "a number from its expression" };
    case "map":
      return index === 0 ? LIST : undefined;
    default:
      return undefined;
  }
}

export const PARAM_KINDS: Readonly<Record<string, [ValueKind, ValueKind?]>> = {
  string: ["string"],
  number: ["number"],
  integer: ["number"],
  boolean: ["boolean"],
  stringList: ["list", "string"],
  numberList: ["list", "number"],
};

export const article = (kind: ValueKind): string =>
  kind === "null" ? "null" : kind === "object" ? "an object" : `a ${kind}`;

const NUMERIC = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The literal meant, when a literal of the wrong kind reads as one of the wanted kind: `"15000"` for a number, `15000` for a string. */
export function literalSuggestion(literal: JsonValue, wanted: readonly ValueKind[]): string | undefined {
  if (typeof literal === "string") {
    if (wanted.includes("number") && NUMERIC.test(literal.trim())) return JSON.stringify(Number(literal.trim()));
    if (wanted.includes("boolean") && (literal === "true" || literal === "false")) return literal;
  }
  if ((typeof literal === "number" || typeof literal === "boolean") && wanted.includes("string"))
    return JSON.stringify(String(literal));
  return undefined;
}

export const suggestionText = (suggestion: string | undefined): string =>
  suggestion === undefined ? "" : `: did you mean \`${suggestion}\`?`;

/** The values of an enum as a message lists them. */
export function listedValues(values: readonly JsonValue[]): string {
  const shown = values.slice(0, 12).map((value) => JSON.stringify(value));
  return values.length > 12 ? `${shown.join(", ")}, ...` : shown.join(", ");
}
