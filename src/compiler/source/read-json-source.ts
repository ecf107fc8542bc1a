import { setMember } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { jsonLocator } from "./json-locator.ts";
import { finishRead, type SourceProblem, type SourceRead } from "./source-problem.ts";
import { positionAt } from "./source-position.ts";
import { MAX_PORTABLE_DIGITS, numberNotPortableMessage, significantDigits } from "./significant-digits.ts";

/**
 * A ruleset written as JSON (RFC 8259), read strictly and with line numbers:
 * - only JSON whitespace (space, tab, line feed, carriage return); a byte order mark is refused;
 * - a number too large for a double (`1e999`) is refused (specification 4.2 rule 1);
 * - a key repeated in one object is refused: parsers disagree on which value wins;
 * - a number with more than 15 significant digits is reported, not refused (NUMBER_NOT_PORTABLE).
 * The parser keeps its own stack, so deep nesting cannot exhaust the call stack.
 */
export function readJsonSource(text: string, file: string): SourceRead {
  const problems: SourceProblem[] = [];
  if (text.startsWith("\uFEFF")) {
    problems.push({
      code: "SOURCE_INVALID",
      message: "the file starts with a byte order mark; source files are UTF-8 without one",
      file,
      line: 1,
      column: 1,
    });
    return { ok: false, problems };
  }
  const parser = new StrictJsonParser(text, file, problems);
  const value = parser.parse();
  return value === undefined ? { ok: false, problems } : finishRead(value, problems, jsonLocator(text));
}

class SyntaxFailure extends Error {}

type Frame =
  | { kind: "array"; value: JsonValue[] }
  | { kind: "object"; value: JsonObject; key: string | undefined; keys: Set<string> };

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
// JSON forbids the control characters U+0000 to U+001F unescaped in a string.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the rule being checked
const STRING = /"(?:[^"\\\u0000-\u001f]|\\.)*"/y;

class StrictJsonParser {
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly file: string,
    private readonly problems: SourceProblem[],
  ) {}

  parse(): JsonValue | undefined {
    try {
      return this.parseDocument();
    } catch (error) {
      if (error instanceof SyntaxFailure) {
        this.problems.push({
          code: "SOURCE_INVALID",
          message: `not valid JSON: ${error.message}`,
          file: this.file,
          ...positionAt(this.text, this.at),
        });
        return undefined;
      }
      throw error;
    }
  }

  private parseDocument(): JsonValue {
    const stack: Frame[] = [];
    let result: JsonValue | undefined;
    // A value has just been completed: hand it to the enclosing container, or finish.
    const complete = (value: JsonValue): void => {
      const top = stack[stack.length - 1];
      if (top === undefined) result = value;
      else if (top.kind === "array") top.value.push(value);
      else setMember(top.value, top.key!, value);
    };
    this.skipWhitespace();
    let expectValue = true;
    for (;;) {
      const top = stack[stack.length - 1];
      if (expectValue) {
        const char = this.text[this.at];
        if (char === "[") {
          this.at++;
          this.skipWhitespace();
          if (this.text[this.at] === "]") {
            this.at++;
            complete([]);
            expectValue = false;
          } else stack.push({ kind: "array", value: [] });
          continue;
        }
        if (char === "{") {
          this.at++;
          this.skipWhitespace();
          if (this.text[this.at] === "}") {
            this.at++;
            complete({});
            expectValue = false;
            continue;
          }
          const frame: Frame = { kind: "object", value: {}, key: undefined, keys: new Set() };
          stack.push(frame);
          this.readKey(frame);
          continue;
        }
        complete(this.readScalar());
        expectValue = false;
        continue;
      }
      this.skipWhitespace();
      if (top === undefined) {
        if (this.at < this.text.length) this.fail(`unexpected ${this.describeHere()} after the value`);
        return result!;
      }
      const char = this.text[this.at];
      if (char === ",") {
        this.at++;
        this.skipWhitespace();
        if (top.kind === "object") this.readKey(top);
        expectValue = true;
        continue;
      }
      if ((top.kind === "array" && char === "]") || (top.kind === "object" && char === "}")) {
        this.at++;
        stack.pop();
        complete(top.value);
        continue;
      }
      this.fail(`expected "," or "${top.kind === "array" ? "]" : "}"}" but found ${this.describeHere()}`);
    }
  }

  /** Reads `"key" :` and leaves the parser before the member's value. */
  private readKey(frame: Frame & { kind: "object" }): void {
    if (this.text[this.at] !== '"') this.fail(`expected a string key but found ${this.describeHere()}`);
    const start = this.at;
    const key = this.readString();
    if (frame.keys.has(key)) {
      this.problems.push({
        code: "SOURCE_INVALID",
        message: `the key ${JSON.stringify(key)} is repeated in one object`,
        file: this.file,
        ...positionAt(this.text, start),
      });
    }
    frame.keys.add(key);
    frame.key = key;
    this.skipWhitespace();
    if (this.text[this.at] !== ":") this.fail(`expected ":" after a key but found ${this.describeHere()}`);
    this.at++;
    this.skipWhitespace();
  }

  private readScalar(): JsonValue {
    const char = this.text[this.at];
    if (char === '"') return this.readString();
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) this.fail(`expected a value but found ${this.describeHere()}`);
    const written = match[0];
    const start = this.at;
    this.at += written.length;
    if (/^[0-9.eE+-]$/.test(this.text[this.at] ?? ""))
      this.fail(`malformed number starting ${JSON.stringify(written)}`);
    const value = Number(written);
    if (!Number.isFinite(value)) {
      this.problems.push({
        code: "SOURCE_INVALID",
        message: `the number ${written} is too large for a double`,
        file: this.file,
        ...positionAt(this.text, start),
      });
      return 0;
    }
    const digits = significantDigits(written);
    if (digits > MAX_PORTABLE_DIGITS)
      this.problems.push({
        code: "NUMBER_NOT_PORTABLE",
        message: numberNotPortableMessage(written, digits),
        file: this.file,
        ...positionAt(this.text, start),
      });
    return value;
  }

  private readString(): string {
    STRING.lastIndex = this.at;
    const match = STRING.exec(this.text);
    if (match === null) this.fail("unterminated string, or a control character inside one");
    try {
      const value = JSON.parse(match[0]) as string;
      this.at += match[0].length;
      return value;
    } catch {
      this.fail(`invalid escape in the string ${match[0].length > 40 ? `${match[0].slice(0, 40)}…` : match[0]}`);
    }
  }

  private skipWhitespace(): void {
    for (;;) {
      const char = this.text[this.at];
      if (char !== "\n" && char !== " " && char !== "\t" && char !== "\r") return;
      this.at++;
    }
  }

  private describeHere(): string {
    if (this.at >= this.text.length) return "the end of the file";
    const codePoint = this.text.codePointAt(this.at)!;
    return codePoint < 0x20 || codePoint === 0xfeff
      ? `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`
      : JSON.stringify(String.fromCodePoint(codePoint));
  }

  private fail(message: string): never {
    throw new SyntaxFailure(message);
  }
}
