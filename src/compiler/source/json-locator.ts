import { lineIndex, type MemberPart, type SourceLocator, type SourcePosition } from "./source-position.ts";

/**
 * Finds members and items in the text of a JSON document already read strictly (so it is valid
 * JSON without repeated keys). The text is scanned only when a problem asks for a place.
 */
export function jsonLocator(text: string): SourceLocator {
  // Each container's members are scanned once, on the first place asked inside it: coverage asks for hundreds.
  const children = new Map<number, Map<string, { key: number | undefined; value: number }>>();
  const childOf = (at: number, segment: string): { key: number | undefined; value: number } | undefined => {
    let members = children.get(at);
    if (members === undefined) children.set(at, (members = membersOf(text, at)));
    return members.get(segment);
  };
  let lines: ((offset: number) => SourcePosition) | undefined;
  return (path, part) => (lines ??= lineIndex(text))(jsonOffset(text, path, part, childOf));
}

/**
 * Where the value at `path` is written in a JSON text already read strictly: its first character
 * and the offset just after its last; undefined when the document holds no such value.
 */
export function jsonValueSpan(text: string, path: readonly string[]): { start: number; end: number } | undefined {
  let at = skipWhitespace(text, 0);
  for (const segment of path) {
    const child = membersOf(text, at).get(segment);
    if (child === undefined) return undefined;
    at = child.value;
  }
  return { start: at, end: valueEnd(text, at) };
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

/** Each member or item of the container at `at` (by name or index) with its key's offset and its value's. */
function membersOf(text: string, at: number): Map<string, { key: number | undefined; value: number }> {
  const members = new Map<string, { key: number | undefined; value: number }>();
  const container = text[at];
  if (container !== "{" && container !== "[") return members;
  let i = skipWhitespace(text, at + 1);
  for (let index = 0; text[i] !== "}" && text[i] !== "]" && i < text.length; index++) {
    let key: number | undefined;
    let name = String(index);
    if (container === "{") {
      key = i;
      const end = stringEnd(text, i);
      name = JSON.parse(text.slice(i, end)) as string;
      i = skipWhitespace(text, skipWhitespace(text, end) + 1);
    }
    if (!members.has(name)) members.set(name, { key, value: i });
    i = skipWhitespace(text, valueEnd(text, i));
    if (text[i] === ",") i = skipWhitespace(text, i + 1);
  }
  return members;
}

function jsonOffset(
  text: string,
  path: readonly string[],
  part: MemberPart,
  childOf: (at: number, segment: string) => { key: number | undefined; value: number } | undefined,
): number {
  let at = skipWhitespace(text, 0);
  let key: number | undefined;
  for (const segment of path) {
    const child = childOf(at, segment);
    if (child === undefined) return at;
    at = child.value;
    key = child.key;
  }
  return part === "key" && key !== undefined ? key : at;
}
