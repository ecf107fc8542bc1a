import { stringify } from "yaml";
import { isJsonObject } from "../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../engine/value/json-value.ts";
import { readPlainScalarAsYaml11, YAML_11_FLAVOURS } from "../compiler/source/yaml-1-1-readings.ts";
import { LINE_WIDTH } from "./line-width.ts";

/**
 * Expressions written as YAML the way `rules/` writes them: a tree in flow style on one line
 * (`{ op: lte, args: [{ var: data.amount }, 100] }`), or, when that is wider than the line, in
 * block style with each argument on its own line, itself on one line where it fits. Operator,
 * function and path names are plain, literal strings quoted; nothing is written that YAML 1.1
 * reads as another value (the reader refuses those, read-yaml-source.ts).
 */

/** The members whose string values are names, written plain where YAML reads them back as the same string. */
const NAME_MEMBERS: ReadonlySet<string> = new Set(["op", "fn", "var"]);

/** What a person writes plain: a name of letters, digits, `_`, `.` and `-`. */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** A string in quotes: single quotes when it holds double quotes and no single quote, double otherwise. */
export function yamlQuoted(text: string): string {
  const type = text.includes('"') && !text.includes("'") ? "QUOTE_SINGLE" : "QUOTE_DOUBLE";
  return stringify(text, { defaultStringType: type, lineWidth: 0 }).replace(/\n$/, "");
}

/** `{ expr: "<text>" }`. */
export function yamlTextExpression(text: string): string {
  return `{ expr: ${yamlQuoted(text)} }`;
}

/** A value in flow style, on one line. */
export function yamlFlow(value: JsonValue, isName = false): string {
  if (Array.isArray(value)) return `[${value.map((item) => yamlFlow(item)).join(", ")}]`;
  if (isJsonObject(value)) {
    const members = Object.entries(value).map(
      ([key, member]) => `${yamlKey(key)}: ${yamlFlow(member, NAME_MEMBERS.has(key))}`,
    );
    return members.length === 0 ? "{}" : `{ ${members.join(", ")} }`;
  }
  return yamlScalar(value, isName);
}

/** Whether a value is laid out on one line where it stands, `column` characters into its line. */
export function fitsOnLine(flow: string, column: number): boolean {
  return column + flow.length <= LINE_WIDTH;
}

/**
 * An object in block style, each line starting with `indentation`; `step` is the file's
 * indentation step. Members that fit on their line are written in flow style.
 */
export function yamlBlock(value: JsonObject, indentation: string, step: string): string[] {
  const lines: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    const head = `${indentation}${yamlKey(key)}:`;
    const flow = yamlFlow(member, NAME_MEMBERS.has(key));
    if (fitsOnLine(flow, head.length + 1) || !isBlockable(member)) lines.push(`${head} ${flow}`);
    else if (Array.isArray(member)) lines.push(head, ...yamlBlockList(member, `${indentation}${step}`, step));
    else lines.push(head, ...yamlBlock(member as JsonObject, `${indentation}${step}`, step));
  }
  return lines;
}

/** A list in block style, `- ` items starting with `indentation`. */
function yamlBlockList(items: readonly JsonValue[], indentation: string, step: string): string[] {
  const lines: string[] = [];
  for (const item of items) {
    const flow = yamlFlow(item);
    if (fitsOnLine(flow, indentation.length + 2) || !isJsonObject(item) || Object.keys(item).length === 0)
      lines.push(`${indentation}- ${flow}`);
    else {
      const [first, ...rest] = yamlBlock(item, `${indentation}  `, step);
      lines.push(`${indentation}- ${first!.trimStart()}`, ...rest);
    }
  }
  return lines;
}

/** A non-empty object or list: what block style can hold. */
export function isBlockable(value: JsonValue): value is JsonObject | JsonValue[] {
  if (Array.isArray(value)) return value.length > 0;
  return isJsonObject(value) && Object.keys(value).length > 0;
}

function yamlKey(key: string): string {
  return isPlainSafe(key) ? key : yamlQuoted(key);
}

function yamlScalar(value: JsonValue, isName: boolean): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number") return yamlNumber(value);
  if (typeof value === "string") return isName && isPlainSafe(value) ? value : yamlQuoted(value);
  throw new TypeError("a scalar was expected");
}

/**
 * A number as JavaScript writes its shortest form, with a point before any exponent (`1.0e-7`):
 * YAML 1.1 reads `1e-7` as a string.
 */
function yamlNumber(value: number): string {
  const text = Object.is(value, -0) ? "-0" : String(value);
  const [mantissa, exponent] = text.split("e");
  return exponent === undefined || mantissa!.includes(".") ? text : `${mantissa}.0e${exponent}`;
}

/** A string YAML 1.2 and every YAML 1.1 reading take as the same string when written plain. */
function isPlainSafe(text: string): boolean {
  // Starting with a letter, it is no number; null and the booleans are words YAML 1.1 reads too.
  return (
    PLAIN_NAME.test(text) &&
    YAML_11_FLAVOURS.every((flavour) => readPlainScalarAsYaml11(text, flavour).kind === "string")
  );
}
