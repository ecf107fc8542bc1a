/**
 * The lines of a YAML text as its indentation shows them, for finding and naming a mis-indented
 * line. No parsing: the YAML parser decides what reads; these only say where things start.
 */

/** The text's lines: index 0 is line 1 (a `\r` before a line's `\n` stays with the line). */
export function textLines(text: string): string[] {
  return text.split("\n");
}

/** Leading spaces and tabs. */
export function leadOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? "";
}

/** Whether the line holds more than whitespace and a comment. */
export function holdsContent(line: string): boolean {
  const trimmed = line.trim();
  return trimmed !== "" && !trimmed.startsWith("#");
}

/**
 * The 0-based columns where members start on the line: its indentation, and after each `- ` the
 * column of what follows (`  - id: x` starts members at 2 and 4).
 */
export function levelsOf(line: string): number[] {
  const levels = [leadOf(line).length];
  for (;;) {
    const column = levels[levels.length - 1] ?? 0;
    const item = /^- +(?=\S)/.exec(line.slice(column));
    if (item === null) return levels;
    levels.push(column + item[0].length);
  }
}

/** What a line (from a column of it) starts with, to name it: a key, a sequence item or text. */
export type LineKind = "key" | "item" | "text";

export function kindAt(line: string, column = leadOf(line).length): LineKind {
  const rest = line.slice(column);
  if (/^-( |$)/.test(rest)) return "item";
  return keyOf(rest) === undefined ? "text" : "key";
}

/** The line from `column` as a reader would point at it: `finding:`, `- id:`, or its first words. */
export function nameAt(line: string, column = leadOf(line).length): string {
  const rest = line.slice(column).trim();
  if (/^-( |$)/.test(rest)) {
    const member = rest.slice(1).trim();
    const key = keyOf(member);
    return `\`- ${key === undefined ? shortened(member) : `${key}:`}\``.replace("`- `", "`-`");
  }
  const key = keyOf(rest);
  return `\`${key === undefined ? shortened(rest) : `${key}:`}\``;
}

/** A key and its colon as written at the start of `text` (plain or quoted), or undefined. */
function keyOf(text: string): string | undefined {
  return /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s"'#{[\]},&*!|>%@`?:-][^#]*?|-\S[^#]*?)[ \t]*:(?=\s|$)/.exec(text)?.[1];
}

const NAME_LENGTH = 24;

/** The first words of a text, cut at a word and marked as cut. */
function shortened(text: string): string {
  const withoutComment = text.replace(/\s#.*$/, "");
  if (withoutComment.length <= NAME_LENGTH) return withoutComment;
  const cut = withoutComment.slice(0, NAME_LENGTH + 1);
  const atWord = cut.lastIndexOf(" ");
  return `${(atWord > 0 ? cut.slice(0, atWord) : cut.slice(0, NAME_LENGTH)).trimEnd()}…`;
}
