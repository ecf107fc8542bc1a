import { positionAt, type MemberPart, type SourceLocator } from "./source-position.ts";

/**
 * Finds members and items in the text of a JSON document already read strictly (so it is valid
 * JSON without repeated keys). The text is scanned only when a problem asks for a place.
 */
export function jsonLocator(text: string): SourceLocator {
  return (path, part) => positionAt(text, jsonOffset(text, path, part));
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

function skipWhitespace(text: string, at: number): number {
  while (WHITESPACE.has(text[at] ?? "")) at++;
  return at;
}

/** The offset just after the string starting at `at`. */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** The offset just after the value starting at `at` (nesting counted without recursion). */
function valueEnd(text: string, at: number): number {
  let depth = 0;
  let i = at;
  do {
    const char = text[i];
    if (char === '"') i = stringEnd(text, i);
    else {
      if (char === "{" || char === "[") depth++;
      else if (char === "}" || char === "]") depth--;
      else if (depth === 0) {
        while (i < text.length && !WHITESPACE.has(text[i]!) && !",}]".includes(text[i]!)) i++;
        return i;
      }
      i++;
    }
  } while (depth > 0 && i < text.length);
  return i;
}

/** The offset of the member or item `segment` of the container at `at`, with its key's offset, or undefined. */
function childOffset(text: string, at: number, segment: string): { key: number | undefined; value: number } | undefined {
  const container = text[at];
  if (container !== "{" && container !== "[") return undefined;
  const wanted = container === "[" ? Number(segment) : NaN;
  let i = skipWhitespace(text, at + 1);
  for (let index = 0; text[i] !== "}" && text[i] !== "]" && i < text.length; index++) {
    let key: number | undefined;
    let matches = index === wanted;
    if (container === "{") {
      key = i;
      const end = stringEnd(text, i);
      matches = JSON.parse(text.slice(i, end)) === segment;
      i = skipWhitespace(text, skipWhitespace(text, end) + 1);
    }
    if (matches) return { key, value: i };
    i = skipWhitespace(text, valueEnd(text, i));
    if (text[i] === ",") i = skipWhitespace(text, i + 1);
  }
  return undefined;
}

function jsonOffset(text: string, path: readonly string[], part: MemberPart): number {
  let at = skipWhitespace(text, 0);
  let key: number | undefined;
  for (const segment of path) {
    const child = childOffset(text, at, segment);
    if (child === undefined) return at;
    at = child.value;
    key = child.key;
  }
  return part === "key" && key !== undefined ? key : at;
}
