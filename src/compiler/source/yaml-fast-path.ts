import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import type { SourcePosition } from "./source-position.ts";
import {
  OUTSIDE_FAST_PATH,
  doubleQuoted,
  endOfLine,
  flowCollection,
  giveUp,
  MAX_FAST_DEPTH,
  plainValue,
  singleQuoted,
  skipSpaces,
  startsPlain,
} from "./yaml-fast-scalars.ts";

/**
 * The value of a ruleset written in the YAML most rulesets are written in, read an order of
 * magnitude faster than the `yaml` package reads it, or undefined: then the full reader
 * (read-yaml-source.ts) reads the text, with every problem and place it reports.
 *
 * At a thousand rulesets, reading YAML was most of the server's start-up (issue 40). The fast path
 * reads a block mapping at the top; block mappings and sequences, compact ones (`- key: value`)
 * included; plain, quoted and block scalars (`|`, `>`, with `-`); flow collections on one line; and
 * comments. It gives up on everything else (tabs, carriage returns, anchors, tags, directives,
 * a second document, multi-line plain, quoted or flow scalars, repeated keys, keys that are not
 * strings) and on every scalar the full reader would report (yaml-fast-scalars.ts): so it returns
 * a value only where the full reader reads the same value with no problem at all, which the tests
 * check against the full reader on every YAML text they hold and on mutations of them.
 */
export function readYamlFastPath(text: string): JsonValue | undefined {
  if (UNREAD_CHARACTERS.test(text)) return undefined;
  try {
    return new BlockReader(text).document();
  } catch (error) {
    // RangeError: nesting deeper than the stack; the full reader says so where it can.
    if (error === OUTSIDE_FAST_PATH || error instanceof RangeError) return undefined;
    throw error;
  }
}

/** Where a member's key and its value start (1-based), as the `yaml` package's node ranges place them. */
export interface FastPlace {
  key?: SourcePosition;
  value?: SourcePosition;
}

/** A path's key among places: each name with its length before it, so that no two paths share one. */
export function placeKey(path: readonly string[]): string {
  let key = "";
  for (const segment of path) key = placeKeyWith(key, segment);
  return key;
}

function placeKeyWith(parent: string, segment: string): string {
  return `${parent}/${segment.length}:${segment}`;
}

/**
 * The places of a text the fast path reads, by path (placeKey of its member names and item
 * indexes): every key, and every value that is a node of the text (not an empty `key:`), inside
 * flow collections too. Undefined where the fast path gives up.
 */
export function yamlFastPathPlaces(text: string): Map<string, FastPlace> | undefined {
  if (UNREAD_CHARACTERS.test(text)) return undefined;
  const places = new Map<string, FastPlace>();
  try {
    new BlockReader(text, places).document();
    return places;
  } catch (error) {
    if (error === OUTSIDE_FAST_PATH || error instanceof RangeError) return undefined;
    throw error;
  }
}

/** Tabs, carriage returns, control characters, a byte order mark and the line breaks YAML 1.1 knew. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const UNREAD_CHARACTERS = /[\x00-\x09\x0b-\x1f\x7f\u0085\u2028\u2029\ufeff]/;

const DOCUMENT_MARKER = /^(?:---|\.\.\.)(?: |$)/;

/** Line by line: each line's indentation and what follows it, a compact node's line rewritten to start where the node does. */
class BlockReader {
  private readonly indents: number[] = [];
  private readonly contents: string[] = [];
  private line = 0;
  private depth = 0;
  /** The keys (placeKey) of the paths down to the node being read, when places are kept. */
  private readonly path: string[] = [placeKey([])];

  constructor(
    text: string,
    private readonly places?: Map<string, FastPlace>,
  ) {
    for (const raw of text.split("\n")) {
      // A document marker anywhere but at the start: a second document, or a line the full reader explains.
      if (
        DOCUMENT_MARKER.test(raw) &&
        (raw !== "---" || this.contents.some((content) => content !== "" && content[0] !== "#"))
      )
        giveUp();
      const indent = skipSpaces(raw, 0);
      this.indents.push(indent);
      this.contents.push(raw.slice(indent));
    }
  }

  document(): JsonValue {
    this.skipBlankLines();
    if (this.line < this.contents.length && this.contents[this.line] === "---" && this.indents[this.line] === 0) {
      this.line++;
      this.skipBlankLines();
    }
    if (this.line >= this.contents.length) giveUp();
    const value = this.blockNode(-1);
    this.skipBlankLines();
    if (this.line < this.contents.length || value === null || typeof value !== "object" || Array.isArray(value))
      giveUp();
    return value;
  }

  /** Keeps where the current path's key or value starts: `column` counts from 0. */
  private place(part: keyof FastPlace, line: number, column: number): void {
    if (this.places === undefined) return;
    const path = this.path.at(-1)!;
    const place = this.places.get(path) ?? {};
    place[part] ??= { line: line + 1, column: column + 1 };
    this.places.set(path, place);
  }

  /** Keeps where a node below the current path starts (inside a flow collection): `column` counts from 0. */
  private placeBelow(below: readonly string[], part: keyof FastPlace, line: number, column: number): void {
    let path = this.path.at(-1)!;
    for (const segment of below) path = placeKeyWith(path, segment);
    const place = this.places!.get(path) ?? {};
    place[part] ??= { line: line + 1, column: column + 1 };
    this.places!.set(path, place);
  }

  /** Past empty lines and comment lines. */
  private skipBlankLines(): void {
    while (this.line < this.contents.length) {
      const content = this.contents[this.line]!;
      if (content !== "" && content[0] !== "#") return;
      this.line++;
    }
  }

  /** The node that starts on the current line, more indented than its parent's `parentIndent`. */
  private blockNode(parentIndent: number): JsonValue {
    if (++this.depth > MAX_FAST_DEPTH) giveUp();
    const indent = this.indents[this.line]!;
    const content = this.contents[this.line]!;
    this.place("value", this.line, indent);
    let node: JsonValue;
    if (isSequenceEntry(content)) node = this.blockSequence(indent);
    else if (mappingKey(content) !== undefined) node = this.blockMapping(indent);
    else node = this.valueOnLine(content, parentIndent, this.depth, indent);
    this.depth--;
    return node;
  }

  private blockMapping(indent: number): JsonObject {
    const members: JsonObject = {};
    while (this.line < this.contents.length && this.indents[this.line] === indent) {
      const content = this.contents[this.line]!;
      const key = mappingKey(content) ?? giveUp();
      if (Object.hasOwn(members, key.name) || key.name === "__proto__") giveUp();
      const rest = skipSpaces(content, key.end);
      if (this.places !== undefined) this.path.push(placeKeyWith(this.path.at(-1)!, key.name));
      this.place("key", this.line, indent);
      if (rest === content.length || content[rest] === "#") {
        if (rest === content.length || rest > key.end) members[key.name] = this.valueBelow(indent, true);
        else giveUp();
      } else {
        this.place("value", this.line, indent + rest);
        members[key.name] = this.valueOnLine(content.slice(rest), indent, this.depth, indent + rest);
      }
      if (this.places !== undefined) this.path.pop();
      this.skipBlankLines();
    }
    if (this.line < this.contents.length && this.indents[this.line]! > indent) giveUp();
    return members;
  }

  private blockSequence(indent: number): JsonValue[] {
    const items: JsonValue[] = [];
    while (
      this.line < this.contents.length &&
      this.indents[this.line] === indent &&
      isSequenceEntry(this.contents[this.line]!)
    ) {
      const content = this.contents[this.line]!;
      const start = skipSpaces(content, 1);
      if (this.places !== undefined) this.path.push(placeKeyWith(this.path.at(-1)!, String(items.length)));
      if (start === content.length || content[start] === "#") items.push(this.valueBelow(indent, false));
      else {
        // A compact node: its line now starts where it does.
        this.indents[this.line] = indent + start;
        this.contents[this.line] = content.slice(start);
        items.push(this.blockNode(indent));
      }
      if (this.places !== undefined) this.path.pop();
      this.skipBlankLines();
    }
    if (this.line < this.contents.length && this.indents[this.line]! > indent) giveUp();
    return items;
  }

  /**
   * The value of a key or entry with nothing after it on its line: the node on the lines below, or
   * null. A key's value may be a sequence at the key's own indentation (`key:` then `- item`).
   */
  private valueBelow(indent: number, ofKey: boolean): JsonValue {
    this.line++;
    this.skipBlankLines();
    if (this.line >= this.contents.length) return null;
    const below = this.indents[this.line]!;
    if (below > indent) return this.blockNode(indent);
    if (ofKey && below === indent && isSequenceEntry(this.contents[this.line]!)) {
      this.place("value", this.line, indent);
      return this.blockSequence(indent);
    }
    return null;
  }

  /** A scalar, a block scalar or a flow collection starting at the beginning of `text`, the current line's rest. */
  private valueOnLine(text: string, parentIndent: number, depth: number, column: number): JsonValue {
    const char = text[0];
    if (char === "|" || char === ">") return this.blockScalar(text, parentIndent);
    let value: JsonValue;
    let end: number;
    if (char === '"') [value, end] = doubleQuoted(text, 0);
    else if (char === "'") [value, end] = singleQuoted(text, 0);
    else if (char === "[" || char === "{") {
      const line = this.line;
      const placer =
        this.places === undefined
          ? undefined
          : (path: readonly string[], part: keyof FastPlace, offset: number) =>
              this.placeBelow(path, part, line, column + offset);
      [value, end] = flowCollection(text, 0, depth + 1, placer);
    } else {
      if (!startsPlain(text, 0)) giveUp();
      const comment = text.indexOf(" #");
      const raw = (comment < 0 ? text : text.slice(0, comment)).trimEnd();
      if (raw.includes(": ") || raw.endsWith(":")) giveUp();
      value = plainValue(raw);
      end = text.length;
    }
    endOfLine(text, end);
    this.line++;
    return value;
  }

  /**
   * A literal (`|`) or folded (`>`) scalar, clipped or stripped (`-`). Kept chomping (`+`),
   * indentation indicators, empty lines holding spaces past the content's indentation, and folded
   * text with more-indented lines are left to the full reader.
   */
  private blockScalar(header: string, parentIndent: number): string {
    const parsed = /^([|>])(-?)( +#.*| *)$/.exec(header) ?? giveUp();
    const folded = parsed[1] === ">";
    const strip = parsed[2] === "-";
    this.line++;
    let first = this.line;
    while (first < this.contents.length && this.contents[first] === "") first++;
    if (first >= this.contents.length) giveUp();
    const contentIndent = this.indents[first]!;
    if (contentIndent <= parentIndent) giveUp();
    const lines: string[] = [];
    let next = this.line;
    for (; next < this.contents.length; next++) {
      const indent = this.indents[next]!;
      const content = this.contents[next]!;
      // An empty line with spaces past the content's indentation: whether they are text is left to the full reader.
      if (content === "") {
        if (indent > contentIndent) giveUp();
        lines.push("");
      } else if (indent < contentIndent) break;
      else lines.push(" ".repeat(indent - contentIndent) + content);
    }
    this.line = next;
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    const body = folded ? foldLines(lines) : lines.join("\n");
    return strip ? body : `${body}\n`;
  }
}

/** Folded text: a line break between two lines is a space, and n empty lines between them n line breaks. */
function foldLines(lines: readonly string[]): string {
  let text = "";
  let empty = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.startsWith(" ")) giveUp();
    if (line === "") {
      empty++;
      continue;
    }
    if (index > 0) text += empty === 0 ? " " : "\n".repeat(empty);
    empty = 0;
    text += line;
  }
  return text;
}

function isSequenceEntry(content: string): boolean {
  return content[0] === "-" && (content.length === 1 || content[1] === " ");
}

/** Longer keys are an error in YAML (implicit keys are at most 1024 characters). */
const MAX_KEY_LENGTH = 1024;

/** The key a block mapping's line starts with, and the offset past its `:`, or undefined if the line is no `key:`. */
function mappingKey(content: string): { name: string; end: number } | undefined {
  const char = content[0];
  if (char === '"' || char === "'") {
    const [name, end] = char === '"' ? doubleQuoted(content, 0) : singleQuoted(content, 0);
    if (content[end] !== ":") return undefined;
    if (end + 1 < content.length && content[end + 1] !== " ") giveUp();
    if (end > MAX_KEY_LENGTH) giveUp();
    return { name, end: end + 1 };
  }
  if (!startsPlain(content, 0)) return undefined;
  let colon = content.indexOf(":");
  while (colon >= 0 && colon + 1 < content.length && content[colon + 1] !== " ")
    colon = content.indexOf(":", colon + 1);
  if (colon < 0) return undefined;
  const raw = content.slice(0, colon);
  if (raw.includes(" #")) return undefined;
  // Flow indicators may stand inside a block context's plain key (`/transfers/{id}:`), not at its start.
  if (raw.endsWith(" ") || colon > MAX_KEY_LENGTH) giveUp();
  const name = plainValue(raw);
  if (typeof name !== "string" || name === "<<") giveUp();
  return { name, end: colon + 1 };
}
