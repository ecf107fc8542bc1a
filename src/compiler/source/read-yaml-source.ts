import {
  Lexer,
  LineCounter,
  Parser,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  parseAllDocuments,
  type Document,
  type Scalar,
} from "yaml";
import type { JsonValue } from "../../engine/value/json-value.ts";
import { finishRead, type SourceProblem, type SourceRead } from "./source-problem.ts";
import { positionAt, type SourceLocator, type SourcePosition } from "./source-position.ts";
import { type FastPlace, placeKey, readYamlFastPath, yamlFastPathPlaces } from "./yaml-fast-path.ts";
import { mendIndentation, type MendedIndentation } from "./yaml-indentation.ts";
import { yamlLocator } from "./yaml-locator.ts";
import { MAX_PORTABLE_DIGITS, numberNotPortableMessage, significantDigits } from "./significant-digits.ts";
import { YAML_11_FLAVOURS, describeReading, readPlainScalarAsYaml11, sameAsYaml12 } from "./yaml-1-1-readings.ts";

/**
 * A ruleset written in YAML (specification section 12). The value is exactly what a YAML 1.2
 * core-schema parser produces (the `yaml` package, core schema, no custom tags). Refused
 * (YAML_NOT_PORTABLE): a byte order mark, directives (`%YAML`, `%TAG`: they change how the rest is
 * read), a second document, anchors, aliases, tags (`!!str` too), merge keys, repeated keys, keys
 * that are not scalars, and every unquoted scalar a YAML 1.1 parser reads as another value
 * (see yaml-1-1-readings.ts). A number too large for a double, or not a number (`.inf`, `.nan`,
 * `1e999`), is SOURCE_INVALID; one with more than 15 significant digits is reported
 * (NUMBER_NOT_PORTABLE) but kept. A text that does not parse for a mis-indented line is told so
 * once, at that line, in place of what the parser says after it (see yaml-indentation.ts).
 * Most texts are read by a fast path that gives the same value or gives up (yaml-fast-path.ts).
 */
export function readYamlSource(text: string, file: string): SourceRead {
  const value = readYamlFastPath(text);
  if (value !== undefined) return { ok: true, value, problems: [], locate: locatorOnDemand(text) };
  return readYamlFully(text, file);
}

/** What readYamlSource does where the fast path (yaml-fast-path.ts) gives up: the `yaml` package reads the text, and every problem is found. */
export function readYamlFully(text: string, file: string): SourceRead {
  return readYaml(text, file, true);
}

/**
 * Places are asked for only when a later check reports a problem or a test is placed: the fast
 * path reads the text again for its places then, once, and a place it does not hold (inside a
 * flow collection, an empty value) is found by the full parser, also once.
 */
function locatorOnDemand(text: string): SourceLocator {
  let places: Map<string, FastPlace> | undefined | null = null;
  let full: SourceLocator | undefined;
  return (path, part) => {
    if (places === null) places = yamlFastPathPlaces(text);
    const place = places?.get(placeKey(path));
    const found = part === "key" ? (place?.key ?? place?.value) : place?.value;
    if (found !== undefined) return found;
    if (full === undefined) {
      const lineCounter = new LineCounter();
      const first = parseYaml(text, lineCounter)[0];
      full = first === undefined ? () => undefined : yamlLocator(first, lineCounter);
    }
    return full(path, part);
  };
}

/** `mend`: look for mis-indented lines when the text does not parse (not again in the text they are mended in). */
function readYaml(text: string, file: string, mend: boolean): SourceRead {
  const problems: SourceProblem[] = [];
  const lineCounter = new LineCounter();
  const lineOf = (offset: number | undefined): number | undefined =>
    offset === undefined ? undefined : lineCounter.linePos(offset).line;
  const at = (offset: number | undefined): SourcePosition | undefined => {
    if (offset === undefined) return undefined;
    const position = lineCounter.linePos(offset);
    return { line: position.line, column: position.col };
  };
  const notPortable = (message: string, offset: number | undefined): void => {
    problems.push({ code: "YAML_NOT_PORTABLE", message, file, ...at(offset) });
  };
  const invalid = (message: string, position: { line: number; col: number } | undefined): void => {
    problems.push(
      position === undefined
        ? { code: "SOURCE_INVALID", message, file }
        : { code: "SOURCE_INVALID", message, file, line: position.line, column: position.col },
    );
  };

  // Where the parser gives up on its own stack, no place is known: line 1 stands for the file.
  const tooDeep = (position: { line: number; col: number } = { line: 1, col: 1 }): void => {
    if (!problems.some((problem) => problem.message.startsWith(TOO_DEEP)))
      invalid(
        `${TOO_DEEP}: it nests deeper than the parser can follow (the whole file is refused; look for its deepest nesting)`,
        position,
      );
  };
  const beyond = mayNestBeyond(text, MAX_FLOW_DEPTH) ? firstOpenerBeyond(text, MAX_FLOW_DEPTH) : undefined;
  if (beyond !== undefined) {
    // The line counter fills only as the parser runs, which it must not here.
    const { line, column } = positionAt(text, beyond);
    invalid(`${TOO_DEEP}: flow collections ([ ] and { }) nest more than ${MAX_FLOW_DEPTH} deep from here`, {
      line,
      col: column,
    });
    return { ok: false, problems };
  }

  let documents: Document.Parsed[];
  try {
    documents = parseYaml(text, lineCounter);
  } catch (error) {
    invalid(`the YAML cannot be read: ${error instanceof Error ? error.message : String(error)}`, undefined);
    return { ok: false, problems };
  }
  const errors = documents.flatMap((document) => document.errors);
  const misread = errors.length > 0 && !errors.some((error) => firstLine(error.message) === TOO_DEEP);
  const mended =
    mend && misread
      ? mendIndentation(text, documents, (mendedText) => parseYaml(mendedText, new LineCounter()))
      : undefined;
  if (mended !== undefined) return withSlips(readYaml(mended.text, file, false), mended, file);
  // The stream's top-level tokens show what the composed documents hide: byte order marks and directives.
  // Anchors, tags and aliases are found there too, each at its own place.
  try {
    for (const token of mayHoldProperties(text) ? new Parser().parse(text) : []) {
      if (token.type === "byte-order-mark")
        notPortable("a byte order mark; source files are UTF-8 without one", token.offset);
      else if (token.type === "directive")
        notPortable(`the directive ${token.source.trim()} is not allowed`, token.offset);
      else
        for (const found of propertyTokens(token))
          notPortable(`the ${found.what} ${found.source} is not allowed`, found.offset);
    }
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    tooDeep();
  }

  documents.forEach((document, index) => {
    if (index === 1) notPortable("a second document; a ruleset source holds exactly one", document.range[0]);
    for (const error of document.errors) {
      const message = firstLine(error.message);
      if (message !== TOO_DEEP) invalid(`not valid YAML: ${message}`, error.linePos?.[0]);
      else tooDeep(error.linePos?.[0]);
    }
    for (const warning of document.warnings) {
      if (warning.code !== "TAG_RESOLVE_FAILED")
        problems.push({ code: "YAML_NOT_PORTABLE", message: firstLine(warning.message), file, ...at(warning.pos[0]) });
    }
    try {
      checkNodes(
        document,
        lineOf,
        notPortable,
        (message, offset) => invalid(message, offset === undefined ? undefined : lineCounter.linePos(offset)),
        (message, offset) => {
          problems.push({ code: "NUMBER_NOT_PORTABLE", message, file, ...at(offset) });
        },
      );
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      tooDeep();
    }
  });

  const first = documents[0];
  const locate = first === undefined ? () => undefined : yamlLocator(first, lineCounter);
  if (problems.some((problem) => problem.code !== "NUMBER_NOT_PORTABLE"))
    return finishRead(salvage(first), problems, locate);
  let value: JsonValue = null;
  try {
    if (first !== undefined) value = first.toJS() as JsonValue;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    tooDeep();
  }
  return finishRead(value ?? null, problems, locate);
}

function parseYaml(text: string, lineCounter: LineCounter): Document.Parsed[] {
  return parseAllDocuments(text, {
    schema: "core",
    version: "1.2",
    customTags: [],
    merge: false,
    uniqueKeys: false,
    logLevel: "silent",
    prettyErrors: true,
    lineCounter,
  }) as Document.Parsed[];
}

/**
 * The slips, each once at its line, in place of the parser errors they cause; then what the mended
 * text has to report besides (an anchor, a YAML 1.1 boolean), at its place in the original text.
 */
function withSlips(read: SourceRead, mended: MendedIndentation, file: string): SourceRead {
  const slips: SourceProblem[] = mended.slips.map(({ line, column, message }) => ({
    code: "SOURCE_INVALID",
    message,
    file,
    line,
    column,
  }));
  const others = read.problems.map((problem) =>
    problem.line === undefined || problem.column === undefined
      ? problem
      : { ...problem, column: mended.originalColumn(problem.line, problem.column) },
  );
  return finishRead(read.ok ? read.value : (read.salvaged ?? null), [...slips, ...others], () => undefined);
}

/** What a refused document holds as far as it could be read (to name its ruleset), or null. */
function salvage(document: Document.Parsed | undefined): JsonValue {
  if (document === undefined || document.errors.length > 0) return null;
  try {
    return (document.toJS() as JsonValue) ?? null;
  } catch {
    return null;
  }
}

function checkNodes(
  document: Document.Parsed,
  lineOf: (offset: number | undefined) => number | undefined,
  notPortable: (message: string, offset: number | undefined) => void,
  invalid: (message: string, offset: number | undefined) => void,
  numberWarning: (message: string, offset: number | undefined) => void,
): void {
  // Every node, keys included, depth first (a plain walk: the yaml package's visit copies and
  // freezes a path per node, a fifth of reading a large file). Deep nesting throws RangeError.
  const walk = (node: unknown): void => {
    if (isAlias(node)) return; // reported from the tokens
    if (isMap(node)) {
      // Each key's offset; its line is worked out only for a key that is repeated.
      const keys = new Map<string, number | undefined>();
      for (const pair of node.items) {
        const key = pair.key;
        if (key !== null && !isScalar(key)) {
          notPortable("a mapping key that is not a scalar", (key as { range?: [number, number, number] }).range?.[0]);
        } else {
          const offset = key?.range?.[0];
          const name = key === null || key.value === null || key.value === undefined ? "" : String(key.value);
          if (isScalar(key) && key.type === "PLAIN" && key.source === "<<")
            notPortable("the merge key << is not allowed (quote it if it is meant as a key)", offset);
          else if (keys.has(name))
            notPortable(
              `the key ${JSON.stringify(name)} is repeated (first on line ${lineOf(keys.get(name))})`,
              offset,
            );
          if (!keys.has(name)) keys.set(name, offset);
        }
        walk(pair.key);
        walk(pair.value);
      }
    } else if (isSeq(node)) for (const item of node.items) walk(item);
    else if (isScalar(node)) checkScalar(node, notPortable, invalid, numberWarning);
  };
  walk(document.contents);
}

function checkScalar(
  node: Scalar,
  notPortable: (message: string, offset: number | undefined) => void,
  invalid: (message: string, offset: number | undefined) => void,
  numberWarning: (message: string, offset: number | undefined) => void,
): void {
  const offset = node.range?.[0];
  const value = node.value;
  if (typeof value === "number") {
    const written = node.source ?? String(value);
    if (!Number.isFinite(value)) {
      invalid(
        Number.isNaN(value)
          ? `${written} is not a number JSON can hold`
          : `the number ${written} is too large for a double`,
        offset,
      );
    } else {
      const digits = significantDigits(written);
      if (digits > MAX_PORTABLE_DIGITS) numberWarning(numberNotPortableMessage(written, digits), offset);
    }
  }
  if (node.type !== "PLAIN" || node.tag !== undefined) return;
  const written = node.source ?? "";
  if (written === "<<") return; // reported as a merge key
  for (const flavour of YAML_11_FLAVOURS) {
    const reading = readPlainScalarAsYaml11(written, flavour);
    if (!sameAsYaml12(reading, value)) {
      notPortable(
        `the unquoted scalar ${written} is ${describeReading(reading)} to a YAML 1.1 parser (${flavour}) but ${describe12(value)} in YAML 1.2: quote it, or write it so both agree`,
        offset,
      );
      return;
    }
  }
}

const PROPERTY_KINDS: Record<string, string> = { anchor: "anchor", tag: "tag", alias: "alias" };

/** Every anchor, tag and alias token inside one top-level token of the concrete syntax tree. */
function propertyTokens(root: unknown): { what: string; source: string; offset: number }[] {
  const found: { what: string; source: string; offset: number }[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const token = value as { type?: unknown; source?: unknown; offset?: unknown };
    const what = typeof token.type === "string" ? PROPERTY_KINDS[token.type] : undefined;
    if (what !== undefined && typeof token.source === "string" && typeof token.offset === "number") {
      found.push({ what, source: token.source.trim(), offset: token.offset });
    }
    for (const [key, member] of Object.entries(value)) if (key !== "source" && typeof member === "object") walk(member);
  };
  walk(root);
  return found;
}

function describe12(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") return "a string";
  if (typeof value === "boolean") return `the boolean ${value}`;
  return `the number ${String(value)}`;
}

/**
 * The parser takes time quadratic in how deep flow collections nest, so nesting is bounded before
 * it runs. A ruleset needs far less: an expression is at most 128 deep (specification 4.7), about
 * twice that as a value. Block nesting needs indentation, so its depth is bounded by the text's size.
 */
const MAX_FLOW_DEPTH = 1000;

/** The lexer's tokens that stand for no text (document start, flow end, scalar start): they take no room in offsets. */
const CONTROL_TOKENS = new Set(["\x02", "\x18", "\x1f"]);

/**
 * The offset of the first `[` or `{` nested deeper than `limit`, or undefined, from the lexer's
 * tokens (quoted scalars and comments are single tokens).
 */
/**
 * Whether a text can nest flow collections more than `limit` deep: only if it holds more openers
 * than that. Most texts hold far fewer, and are not lexed a first time to find out (at a thousand
 * rulesets, start-up time is mostly reading YAML).
 */
function mayNestBeyond(text: string, limit: number): boolean {
  let openers = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code === 0x5b || code === 0x7b) && ++openers > limit) return true;
  }
  return false;
}

/**
 * Whether a text can hold what only the token stream shows (a byte order mark, a directive, an
 * anchor, an alias, a tag): each starts with a character of its own, and a text without any of
 * them is not tokenized a second time to look.
 */
function mayHoldProperties(text: string): boolean {
  return /[\uFEFF%&*!]/.test(text);
}

function firstOpenerBeyond(text: string, limit: number): number | undefined {
  let depth = 0;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === "[" || token === "{") {
      if (++depth > limit) return offset;
    } else if (token === "]" || token === "}") depth = Math.max(0, depth - 1);
    if (!CONTROL_TOKENS.has(token)) offset += token.length;
  }
  return undefined;
}

const TOO_DEEP = "the YAML is nested too deeply to read";

/** The parser's message without its pretty-printed excerpt and position (the line is reported apart). */
function firstLine(message: string): string {
  const first = (message.split("\n")[0] ?? message).trim().replace(/ at line \d+, column \d+:?$/, "");
  return /call stack/i.test(first) ? TOO_DEEP : first;
}
