/**
 * Places in a source file, for problems an editor or CI can point at. Positions are computed only
 * when a problem needs one, so reading a valid file costs nothing extra.
 */

/** 1-based line and column (columns count UTF-16 code units, as editors and GitHub do). */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** The part of a member a problem is about: its key (a missing or unknown member) or its value. */
export type MemberPart = "key" | "value";

/**
 * The position of what a path of member names and item indexes names in a document. A path that
 * leaves the document gives the deepest node that exists on it (the object a missing member
 * belongs in).
 */
export type SourceLocator = (path: readonly string[], part: MemberPart) => SourcePosition | undefined;

/** Line and column of offsets into a text, its line starts found once: for callers asking many places. */
export function lineIndex(text: string): (offset: number) => SourcePosition {
  const starts = lineStarts(text);
  return (offset) => positionIn(starts, offset);
}

/** The offset each line of a text starts at. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) starts.push(at + 1);
  return starts;
}

/** The line and column of an offset, given the text's line starts. */
export function positionIn(starts: readonly number[], offset: number): SourcePosition {
  // The last line start at or before the offset.
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - starts[low]! + 1 };
}

/** The line and column of an offset into a text (counted on demand). */
export function positionAt(text: string, offset: number): SourcePosition {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < offset; at = text.indexOf("\n", at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
