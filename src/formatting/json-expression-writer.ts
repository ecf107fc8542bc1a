import { isJsonObject } from "../engine/value/json-access.ts";
import type { JsonValue } from "../engine/value/json-value.ts";
import { LINE_WIDTH } from "./line-width.ts";

/** How a JSON file is laid out, as far as writing an expression into it needs. */
export interface JsonStyle {
  /** One level of indentation (`"  "`, `"\t"`); undefined for a file on one line. */
  readonly indentation: string | undefined;
  /**
   * Whether the file writes objects on one line where they fit (by hand, or as Prettier and Biome
   * do), or each member on its own line always (as `JSON.stringify(value, null, 2)` does).
   */
  readonly objectsOnOneLine: boolean;
  /** `{ "op": ... }` (the default) or `{"op": ...}`. */
  readonly spacedBraces: boolean;
  readonly newline: "\n" | "\r\n";
}

/** The style of a JSON text: its first indented line's indentation, and how it writes objects on one line. */
export function jsonStyleOf(text: string): JsonStyle {
  const indented = /\n([ \t]+)\S/.exec(text);
  const spaced = text.match(/\{ "/g)?.length ?? 0;
  const unspaced = text.match(/\{"/g)?.length ?? 0;
  const opened = text.match(/\{[ \t]*"/g)?.length ?? 0;
  return {
    indentation: indented?.[1],
    objectsOnOneLine: opened > 0,
    spacedBraces: spaced >= unspaced,
    newline: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

/**
 * A value as JSON at a place whose line is indented by `indentation`, `column` characters into
 * the line: on one line where it fits and the file writes objects so (objects as the file writes
 * them on one line, lists `[a, b]`), else each member or item on its own line, one level deeper,
 * each laid out the same way. A file on one line gets the value on one line.
 */
export function jsonLaidOut(value: JsonValue, style: JsonStyle, indentation: string, column: number): string {
  const flow = jsonFlow(value, style);
  if (style.indentation === undefined) return flow;
  // Room is kept for the comma that may follow.
  if (style.objectsOnOneLine && column + flow.length + 1 <= LINE_WIDTH) return flow;
  const inner = indentation + style.indentation;
  if (Array.isArray(value) && value.length > 0) {
    const items = value.map((item) => inner + jsonLaidOut(item, style, inner, inner.length));
    return `[${style.newline}${items.join(`,${style.newline}`)}${style.newline}${indentation}]`;
  }
  if (isJsonObject(value) && Object.keys(value).length > 0) {
    const members = Object.entries(value).map(([key, member]) => {
      const head = `${inner}${JSON.stringify(key)}: `;
      return head + jsonLaidOut(member, style, inner, head.length);
    });
    return `{${style.newline}${members.join(`,${style.newline}`)}${style.newline}${indentation}}`;
  }
  return flow;
}

/** A value as JSON on one line. */
export function jsonFlow(value: JsonValue, style: JsonStyle): string {
  if (Array.isArray(value)) return `[${value.map((item) => jsonFlow(item, style)).join(", ")}]`;
  if (isJsonObject(value)) {
    const members = Object.entries(value).map(([key, member]) => `${JSON.stringify(key)}: ${jsonFlow(member, style)}`);
    if (members.length === 0) return "{}";
    return style.spacedBraces ? `{ ${members.join(", ")} }` : `{${members.join(", ")}}`;
  }
  // -0 as written in the text it came from; JSON.stringify would write 0.
  return Object.is(value, -0) ? "-0" : JSON.stringify(value);
}
