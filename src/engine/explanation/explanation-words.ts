import type { JsonValue } from "../value/json-value.ts";
import { valueText } from "./value-text.ts";

/**
 * A phrase of an explanation for people: text, with the names it quotes (rules, fields, codes,
 * what the request gave) as `{code}` parts. The explorer shows those as code; the command line
 * prints them as they are, so both read the same characters.
 */
export type Words = readonly (string | { readonly code: string })[];

/**
 * The words as plain text, names as they are: what the command line prints and the page's text.
 * Every explanation says a summary a rule: a loop, which costs half of `map` and `join`.
 */
export function wordsText(words: Words): string {
  let text = "";
  for (const part of words) text += typeof part === "string" ? part : part.code;
  return text;
}

export function code(text: string): { readonly code: string } {
  return { code: text };
}

/** A JSON value a request or an explanation gave, quoted: a string as it is, anything else as JSON. */
export function named(value: JsonValue | undefined): { readonly code: string } {
  return code(typeof value === "string" ? value : valueText(value ?? null));
}

/** `a`, `a or b`, `a, b or c` (`last` joins the last two). */
export function listed(names: readonly string[], last: string): Words {
  const words: (string | { readonly code: string })[] = [];
  for (let index = 0; index < names.length; index++) {
    if (index > 0) words.push(index === names.length - 1 ? last : ", ");
    words.push(code(names[index]!));
  }
  return words;
}

/** `1 rule`, `2 rules`. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
