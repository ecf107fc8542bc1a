/** A part of a text to write anew: the characters from `start` up to `end` (excluded) become `text`. */
export interface TextSplice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The text with each splice made; splices do not overlap. Everything else stays as it was, byte for byte. */
export function applySplices(text: string, splices: readonly TextSplice[]): string {
  let result = "";
  let at = 0;
  for (const splice of [...splices].sort((a, b) => a.start - b.start)) {
    result += text.slice(at, splice.start) + splice.text;
    at = splice.end;
  }
  return result + text.slice(at);
}

/** The offset the line holding `offset` starts at. */
export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** The offset of the end of the line holding `offset` (its line feed, or the text's end). */
export function lineEndOf(text: string, offset: number): number {
  const end = text.indexOf("\n", offset);
  return end === -1 ? text.length : end;
}
