import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { MAX_PORTABLE_DIGITS, significantDigits } from "./significant-digits.ts";
import { YAML_11_FLAVOURS, readPlainScalarAsYaml11, sameAsYaml12 } from "./yaml-1-1-readings.ts";

/**
 * The scalars and one-line flow collections of the fast path (yaml-fast-path.ts). Each reader
 * either reads exactly what the `yaml` package reads (YAML 1.2, core schema) from text that is
 * valid and portable, or gives up with OUTSIDE_FAST_PATH, and the full reader runs instead.
 */
export const OUTSIDE_FAST_PATH = Symbol("outside the YAML fast path");

export function giveUp(): never {
  throw OUTSIDE_FAST_PATH;
}

/**
 * Nesting deeper than this, block and flow together, is left to the full reader, which bounds it
 * and says where (an expression is at most 128 deep, specification 4.7; rulesets nest far less).
 */
export const MAX_FAST_DEPTH = 64;

const NULL = /^(?:~|[Nn]ull|NULL)$/;
const BOOLEAN = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INTEGER = /^[-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** Octal, hexadecimal, infinities and not-a-number: rare in rulesets, left to the full reader. */
const OTHER_NUMBER = /^(?:0o|0x|[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$)/;

const TYPED_FIRST_CHARACTERS = asciiTable("0123456789+-.~<=yYnNtTfFoO");
const TYPED_FIRST_LETTERS = asciiTable("yYnNtTfFoO");

/**
 * The words YAML 1.2 core or a YAML 1.1 reading (yaml-1-1-readings.ts) takes for a null or a
 * boolean: a plain scalar that starts with a letter is a string in every reading unless it is one
 * of them. Keys such as `op`, `title` or `type` are most of a ruleset's scalars.
 */
const TYPED_WORDS = new Set(
  ["y", "yes", "n", "no", "true", "false", "on", "off", "null"].flatMap((word) => [
    word,
    word[0]!.toUpperCase() + word.slice(1),
    word.toUpperCase(),
  ]),
);

/** Characters a plain scalar may not start with (flow and block context alike), but for `-`, `?`, `:` before a space. */
const NOT_PLAIN_START = asciiTable("#,[]{}&*!|>'\"%@` ");

/**
 * A set of ASCII characters as a table by character code: looked up for every scalar, where a
 * Set of one-character strings cost a tenth of reading YAML.
 */
function asciiTable(characters: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const character of characters) table[character.charCodeAt(0)] = 1;
  return table;
}

function inTable(table: Uint8Array, code: number): boolean {
  return code < 128 && table[code] === 1;
}

/**
 * A plain scalar's value under the core schema, given up on where the full reader would report
 * something: a YAML 1.1 parser reading it otherwise, a number JSON cannot hold or with more
 * significant digits than a double keeps.
 */
export function plainValue(text: string): JsonValue {
  // A text starting with a character no YAML 1.1 or 1.2 type but strings starts with is a string
  // either way: not a digit, sign, dot, `~`, `<` (`<<`), `=` (1.1's value key) or the first letter
  // of a null, a boolean or 1.1's yes, no, on and off.
  const first = text.charCodeAt(0);
  if (!inTable(TYPED_FIRST_CHARACTERS, first)) return text;
  if (inTable(TYPED_FIRST_LETTERS, first) && !TYPED_WORDS.has(text)) return text;
  let value: JsonValue;
  if (NULL.test(text)) value = null;
  else if (BOOLEAN.test(text)) value = text[0] === "t" || text[0] === "T";
  else if (OTHER_NUMBER.test(text)) giveUp();
  else if (INTEGER.test(text) || FLOAT.test(text)) {
    value = INTEGER.test(text) ? Number.parseInt(text, 10) : Number.parseFloat(text);
    if (!Number.isFinite(value) || significantDigits(text) > MAX_PORTABLE_DIGITS) giveUp();
  } else value = text;
  for (const flavour of YAML_11_FLAVOURS) if (!sameAsYaml12(readPlainScalarAsYaml11(text, flavour), value)) giveUp();
  return value;
}

/** Whether `text` at `at` can start a plain scalar (`-` only before a character that could follow it in either context). */
export function startsPlain(text: string, at: number): boolean {
  const char = text[at];
  if (char === undefined || inTable(NOT_PLAIN_START, text.charCodeAt(at))) return false;
  if (char === "-" || char === "?" || char === ":") {
    const next = text[at + 1];
    return char === "-" && next !== undefined && !" ,[]{}".includes(next);
  }
  return true;
}

const ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
};
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/** A double-quoted scalar that closes on its line, starting at `at` (the quote): its value and the offset past it. */
export function doubleQuoted(text: string, at: number): [string, number] {
  let value = "";
  let from = at + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    const backslash = text.indexOf("\\", from);
    if (quote < 0) giveUp();
    if (backslash < 0 || quote < backslash) return [value + text.slice(from, quote), quote + 1];
    value += text.slice(from, backslash);
    const kind = text[backslash + 1];
    if (kind === undefined) giveUp();
    const digits = HEX_DIGITS[kind];
    if (digits === undefined) {
      const replacement = ESCAPES[kind];
      if (replacement === undefined) giveUp();
      value += replacement;
      from = backslash + 2;
    } else {
      const hex = text.slice(backslash + 2, backslash + 2 + digits);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) giveUp();
      const code = Number.parseInt(hex, 16);
      if (code > 0x10ffff) giveUp();
      value += String.fromCodePoint(code);
      from = backslash + 2 + digits;
    }
  }
}

/** A single-quoted scalar that closes on its line (`''` is a quote), starting at `at`. */
export function singleQuoted(text: string, at: number): [string, number] {
  let value = "";
  let from = at + 1;
  for (;;) {
    const quote = text.indexOf("'", from);
    if (quote < 0) giveUp();
    value += text.slice(from, quote);
    if (text[quote + 1] !== "'") return [value, quote + 1];
    value += "'";
    from = quote + 2;
  }
}

/** Past the spaces from `at`. */
export function skipSpaces(text: string, at: number): number {
  let offset = at;
  while (text.charCodeAt(offset) === 0x20) offset++;
  return offset;
}

/** Gives up unless the line from `at` holds nothing more but spaces and a comment after a space. */
export function endOfLine(text: string, at: number): void {
  const offset = skipSpaces(text, at);
  if (offset === text.length) return;
  if (text[offset] !== "#" || offset === at) giveUp();
}

/** Where a node inside a flow collection starts: its path below the collection, its part, and its offset on the line. */
export type FlowPlacer = (path: readonly string[], part: "key" | "value", offset: number) => void;

/**
 * A flow collection (`[ ]` or `{ }`) that closes on its line, starting at `at`: its value and the
 * offset past it. Trailing commas, implicit pairs, keys without values, and `:` inside plain
 * scalars are left to the full reader. With `placer`, says where each key and value inside starts.
 */
export function flowCollection(
  text: string,
  at: number,
  depth = 1,
  placer?: FlowPlacer,
  path: string[] = [],
): [JsonValue, number] {
  if (depth > MAX_FAST_DEPTH) giveUp();
  const closing = text[at] === "[" ? "]" : "}";
  const sequence = closing === "]";
  const items: JsonValue[] = [];
  const members: JsonObject = {};
  let offset = skipSpaces(text, at + 1);
  if (text[offset] === closing) return [sequence ? items : members, offset + 1];
  for (;;) {
    if (sequence) {
      path.push(String(items.length));
      placer?.(path, "value", offset);
      const [item, end] = flowNode(text, offset, depth, placer, path);
      path.pop();
      items.push(item);
      offset = end;
    } else {
      const [key, afterKey] = flowKey(text, offset);
      if (text[afterKey] !== ":" || text[afterKey + 1] !== " ") giveUp();
      if (Object.hasOwn(members, key) || key === "__proto__") giveUp();
      path.push(key);
      placer?.(path, "key", offset);
      const valueAt = skipSpaces(text, afterKey + 1);
      placer?.(path, "value", valueAt);
      const [member, end] = flowNode(text, valueAt, depth, placer, path);
      path.pop();
      members[key] = member;
      offset = end;
    }
    offset = skipSpaces(text, offset);
    if (text[offset] === closing) return [sequence ? items : members, offset + 1];
    if (text[offset] !== ",") giveUp();
    offset = skipSpaces(text, offset + 1);
    if (text[offset] === closing) giveUp();
  }
}

function flowKey(text: string, at: number): [string, number] {
  const char = text[at];
  if (char === '"') return doubleQuoted(text, at);
  if (char === "'") return singleQuoted(text, at);
  const [raw, end] = flowPlain(text, at);
  const key = plainValue(raw);
  if (typeof key !== "string" || key === "<<") giveUp();
  return [key, end];
}

/** A node inside a flow collection, from `at` (spaces before it skipped). */
function flowNode(
  text: string,
  at: number,
  depth: number,
  placer: FlowPlacer | undefined,
  path: string[],
): [JsonValue, number] {
  const offset = skipSpaces(text, at);
  const char = text[offset];
  if (char === '"') return doubleQuoted(text, offset);
  if (char === "'") return singleQuoted(text, offset);
  if (char === "[" || char === "{") return flowCollection(text, offset, depth + 1, placer, path);
  const [raw, end] = flowPlain(text, offset);
  if (text[end] === ":") giveUp();
  return [plainValue(raw), end];
}

/** A plain scalar inside a flow collection: up to a flow indicator, a `:` or a comment; its text and end. */
function flowPlain(text: string, at: number): [string, number] {
  if (!startsPlain(text, at)) giveUp();
  let end = at;
  for (; end < text.length; end++) {
    const char = text[end];
    if (char === "," || char === "]" || char === "}" || char === ":") break;
    if (char === "[" || char === "{" || (char === "#" && text[end - 1] === " ")) giveUp();
  }
  const raw = text.slice(at, end).trimEnd();
  if (raw === "") giveUp();
  return [raw, end];
}
