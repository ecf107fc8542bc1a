/**
 * Where a character of a string value is written in its source: the offset in the file of the
 * character at `offset` in the value, the scalar starting at `scalarStart` (its quote, its block
 * indicator or its first character). JSON strings and YAML's double-quoted, single-quoted, plain
 * and block scalars are followed as written: escapes, doubled quotes, folded lines, indentation.
 * An offset past the value gives the scalar's end as far as it was walked.
 */
export function sourceOffsetOf(source: string, scalarStart: number, offset: number): number {
  const first = source[scalarStart];
  if (first === '"') return quotedOffset(source, scalarStart + 1, offset, '"');
  if (first === "'") return quotedOffset(source, scalarStart + 1, offset, "'");
  if (first === "|" || first === ">") return blockOffset(source, scalarStart, offset);
  return plainOffset(source, scalarStart, offset);
}

/** Inside quotes: an escape (`\n`, `\u00e9`, `\x41`) or a doubled single quote is one character of the value. */
function quotedOffset(source: string, start: number, offset: number, quote: string): number {
  let at = start;
  for (let count = 0; count < offset && at < source.length; count++) {
    const char = source[at]!;
    if (char === quote && quote === "'" && source[at + 1] === "'") at += 2;
    else if (char === quote) return at;
    else if (char === "\\" && quote === '"') at += escapeLength(source, at);
    else if (char === "\n") at = afterIndentation(source, at + 1);
    else at++;
  }
  return at;
}

function escapeLength(source: string, at: number): number {
  switch (source[at + 1]) {
    case "u":
      return 6;
    case "x":
      return 4;
    case "U":
      return 10;
    default:
      return 2;
  }
}

function afterIndentation(source: string, at: number): number {
  let index = at;
  while (source[index] === " " || source[index] === "\t") index++;
  return index;
}

/** A plain scalar: its lines folded, each after its indentation. */
function plainOffset(source: string, start: number, offset: number): number {
  let at = start;
  for (let count = 0; count < offset && at < source.length; count++)
    at = source[at] === "\n" ? afterIndentation(source, at + 1) : at + 1;
  return at;
}

/** A block scalar (`|`, `>`): its content starts on the next line, each line after the block's indentation. */
function blockOffset(source: string, indicator: number, offset: number): number {
  const lineEnd = source.indexOf("\n", indicator);
  if (lineEnd === -1) return indicator;
  let at = lineEnd + 1;
  const indentation = afterIndentation(source, at) - at;
  at += indentation;
  for (let count = 0; count < offset && at < source.length; count++) {
    if (source[at] === "\n") {
      at++;
      // Up to the block's indentation: more is part of the value.
      for (let skipped = 0; skipped < indentation && source[at] === " "; skipped++) at++;
    } else at++;
  }
  return at;
}
