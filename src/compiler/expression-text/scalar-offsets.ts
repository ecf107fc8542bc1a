/**
 * Where the characters of a string value are written in its source, both ways: JSON strings and
 * YAML's double-quoted, single-quoted, plain and block scalars are followed as written: escapes,
 * doubled quotes, folded lines, indentation. `scalarStart` is where the scalar starts (its quote,
 * its block indicator or its first character). Both directions take the same walk over the
 * scalar, so that each is the other's inverse.
 */

/** The offset in the file of the character at `offset` in the value. An offset past the value gives the scalar's end as far as it was walked. */
export function sourceOffsetOf(source: string, scalarStart: number, offset: number): number {
  const walk = scalarWalk(source, scalarStart);
  let at = walk.first;
  for (let count = 0; count < offset; count++) {
    const next = walk.next(at);
    if (next === undefined) break;
    at = next;
  }
  return at;
}

/**
 * The offset in the value of the character written at `sourceOffset` (an editor's cursor): inside
 * an escape, the character it writes; before the value, 0; after it, the value's length as far as
 * the walk goes (a plain or block scalar is walked to the cursor).
 */
export function textOffsetOf(source: string, scalarStart: number, sourceOffset: number): number {
  const walk = scalarWalk(source, scalarStart);
  let at = walk.first;
  let count = 0;
  for (;;) {
    if (at >= sourceOffset) return count;
    const next = walk.next(at);
    if (next === undefined || next > sourceOffset) return count;
    at = next;
    count++;
  }
}

/** A walk over a scalar's characters: where the first is written, and from one to the next (undefined at the end). */
interface ScalarWalk {
  readonly first: number;
  next(at: number): number | undefined;
}

function scalarWalk(source: string, scalarStart: number): ScalarWalk {
  const first = source[scalarStart];
  if (first === '"' || first === "'") return quotedWalk(source, scalarStart + 1, first);
  if (first === "|" || first === ">") return blockWalk(source, scalarStart);
  return plainWalk(source, scalarStart);
}

/** Inside quotes: an escape (`\n`, `\u00e9`, `\x41`) or a doubled single quote is one character of the value. */
function quotedWalk(source: string, start: number, quote: string): ScalarWalk {
  return {
    first: start,
    next: (at) => {
      if (at >= source.length) return undefined;
      const char = source[at]!;
      if (char === quote && quote === "'" && source[at + 1] === "'") return at + 2;
      if (char === quote) return undefined;
      if (char === "\\" && quote === '"') return at + escapeLength(source, at);
      if (char === "\n") return afterIndentation(source, at + 1);
      return at + 1;
    },
  };
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
function plainWalk(source: string, start: number): ScalarWalk {
  return {
    first: start,
    next: (at) => {
      if (at >= source.length) return undefined;
      return source[at] === "\n" ? afterIndentation(source, at + 1) : at + 1;
    },
  };
}

/** A block scalar (`|`, `>`): its content starts on the next line, each line after the block's indentation. */
function blockWalk(source: string, indicator: number): ScalarWalk {
  const lineEnd = source.indexOf("\n", indicator);
  if (lineEnd === -1) return { first: indicator, next: () => undefined };
  const contentStart = lineEnd + 1;
  const indentation = afterIndentation(source, contentStart) - contentStart;
  return {
    first: contentStart + indentation,
    next: (at) => {
      if (at >= source.length) return undefined;
      if (source[at] !== "\n") return at + 1;
      let next = at + 1;
      // Up to the block's indentation: more is part of the value.
      for (let skipped = 0; skipped < indentation && source[next] === " "; skipped++) next++;
      return next;
    },
  };
}
