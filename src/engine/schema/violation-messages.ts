import { canonicalNumberText } from "../number/canonical-number.ts";
import { isNumberValue } from "../value/value-kind.ts";
import type { JsonType } from "./json-type.ts";

/** The words of schema violations: what was expected, what was found, values shown short. */

const TYPE_NAMES: Record<JsonType, string> = {
  null: "null",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  number: "a number",
  integer: "an integer",
  string: "a string",
};
const SHOWN_LENGTH = 60;
const LISTED_VALUES = 12;

export function typeMessage(types: readonly JsonType[], nullable: boolean, value: unknown): string {
  const expected = types.map((type) => TYPE_NAMES[type]);
  if (nullable && !types.includes("null")) expected.push("null");
  // A number with a fraction where only integers fit: the number says more than "a number".
  const got =
    isNumberValue(value) && types.includes("integer") && !types.includes("number")
      ? canonicalNumberText(value)
      : kindOf(value);
  return `expected ${alternatives(expected)}, got ${got}`;
}

export function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (isNumberValue(value)) return "a number";
  switch (typeof value) {
    case "string":
      return "a string";
    case "boolean":
      return "a boolean";
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

export function alternatives(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** A value in a sentence: strings quoted, long ones cut. */
export function shown(value: unknown): string {
  if (typeof value === "string") return `'${cut(value)}'`;
  return bare(value);
}

/** A value in a list: strings as they are. */
export function bare(value: unknown): string {
  if (typeof value === "string") return cut(value);
  if (isNumberValue(value)) return canonicalNumberText(value);
  try {
    return cut(JSON.stringify(value) ?? String(value));
  } catch {
    return kindOf(value);
  }
}

export function cut(text: string): string {
  return text.length <= SHOWN_LENGTH ? text : `${text.slice(0, SHOWN_LENGTH)}…`;
}

export function listed(values: readonly unknown[]): string {
  const shownValues = values.slice(0, LISTED_VALUES).map(bare).join(", ");
  return values.length <= LISTED_VALUES ? shownValues : `${shownValues}, … (${values.length} in all)`;
}

export function number(value: number): string {
  return canonicalNumberText(value);
}

export function plural(amount: number, one: string, many: string): string {
  return `${number(amount)} ${amount === 1 ? one : many}`;
}

export function characters(amount: number): string {
  return plural(amount, "character", "characters");
}

export function items(amount: number): string {
  return plural(amount, "item", "items");
}

export function members(amount: number): string {
  return plural(amount, "member", "members");
}

export function noneMatched(branches: number): string {
  return branches === 1 ? "does not match the allowed shape" : `matches none of the ${branches} allowed shapes`;
}
