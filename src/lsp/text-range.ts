import type { Position, Range } from "vscode-languageserver/node";

/**
 * Ranges in a text for places given as 1-based line and column (as `check` reports them): the
 * range covers the name or value that starts there, so an editor underlines the word to change.
 */
export function rangeAt(text: string | TextLines | undefined, line: number, column: number): Range {
  const start: Position = { line: Math.max(0, line - 1), character: Math.max(0, column - 1) };
  const lineText =
    text === undefined ? undefined : typeof text === "string" ? lineOf(text, start.line) : text(start.line);
  if (lineText === undefined) return { start, end: { line: start.line, character: start.character + 1 } };
  const rest = lineText.slice(start.character);
  // A quoted scalar to its closing quote; otherwise up to what ends a plain YAML or JSON token.
  const quoted = /^(["'])(?:\\.|(?!\1).)*\1/.exec(rest);
  const token = quoted?.[0] ?? /^[^\s,:{}[\]]+(?::[^\s,{}[\]]+)*/.exec(rest)?.[0] ?? "";
  const length = Math.max(1, Math.min(token.length, rest.length));
  return { start, end: { line: start.line, character: start.character + length } };
}

/** The lines of a text by 0-based number, found once: for callers placing many ranges in one file. */
export type TextLines = (line: number) => string | undefined;

export function textLines(text: string): TextLines {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return (line) => {
    const start = starts[line];
    if (start === undefined) return undefined;
    const end = starts[line + 1];
    return text.slice(start, end === undefined ? text.length : end - 1).replace(/\r$/, "");
  };
}

/** The text of a 0-based line, without its line break; undefined past the end. */
export function lineOf(text: string, line: number): string | undefined {
  let start = 0;
  for (let current = 0; current < line; current++) {
    const next = text.indexOf("\n", start);
    if (next === -1) return undefined;
    start = next + 1;
  }
  const end = text.indexOf("\n", start);
  return text.slice(start, end === -1 ? text.length : end).replace(/\r$/, "");
}

/** The 0-based offset of a position in a text. */
export function offsetAt(text: string, position: Position): number {
  let offset = 0;
  for (let line = 0; line < position.line; line++) {
    const next = text.indexOf("\n", offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  return Math.min(text.length, offset + position.character);
}
