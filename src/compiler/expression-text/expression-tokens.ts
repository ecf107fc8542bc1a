/**
 * The tokens of an expression written as text, each with where it starts and ends in the text
 * (UTF-16 offsets). A character no token starts with is an `ExpressionTextError` at it.
 */
export type TokenKind = "number" | "string" | "name" | "quoted-name" | "symbol" | "end";

export interface Token {
  readonly kind: TokenKind;
  /** The token as written; a name in backquotes without them. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** A text that is not an expression: what is wrong, and the offset of the character it is found at. */
export class ExpressionTextError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const SYMBOLS = [
  "&&",
  "||",
  "==",
  "!=",
  "<=",
  ">=",
  "<",
  ">",
  "!",
  "+",
  "-",
  "*",
  "/",
  "%",
  "(",
  ")",
  "[",
  "]",
  ",",
  ".",
];
const UNSIGNED_NUMBER = /(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: a JSON string holds no raw control character
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4}))*"/y;
const SPACE = /[ \t\r\n]+/y;
/** A path member right after a dot: `data.amount`, `data.items.0` (a member of digits stays as written). */
const MEMBER = /[A-Za-z0-9_]+/y;
/** What cannot follow a number: `01`, `1.`, `1e`, `5x`. */
const AFTER_NUMBER = /[0-9A-Za-z_.]/;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    return pattern.exec(text)?.[0];
  };
  while (at < text.length) {
    const space = match(SPACE);
    if (space !== undefined) {
      at += space.length;
      continue;
    }
    const char = text[at]!;
    const member = tokens.at(-1)?.text === "." ? match(MEMBER) : undefined;
    if (member !== undefined) {
      tokens.push({ kind: "name", text: member, start: at, end: at + member.length });
      at += member.length;
      continue;
    }
    if (char >= "0" && char <= "9") {
      const number = match(UNSIGNED_NUMBER)!;
      const after = text[at + number.length];
      if (after !== undefined && AFTER_NUMBER.test(after))
        throw new ExpressionTextError(
          `\`${text.slice(at, at + number.length + 1)}\` is not a number as JSON writes one`,
          at,
        );
      tokens.push({ kind: "number", text: number, start: at, end: at + number.length });
      at += number.length;
      continue;
    }
    if (char === '"') {
      const string = match(STRING);
      if (string === undefined) throw new ExpressionTextError(stringProblem(text, at), at);
      tokens.push({ kind: "string", text: string, start: at, end: at + string.length });
      at += string.length;
      continue;
    }
    if (char === "`") {
      const close = text.indexOf("`", at + 1);
      if (close === -1) throw new ExpressionTextError("a name in backquotes has no closing backquote", at);
      tokens.push({ kind: "quoted-name", text: text.slice(at + 1, close), start: at, end: close + 1 });
      at = close + 1;
      continue;
    }
    const name = match(NAME);
    if (name !== undefined) {
      tokens.push({ kind: "name", text: name, start: at, end: at + name.length });
      at += name.length;
      continue;
    }
    const symbol = SYMBOLS.find((candidate) => text.startsWith(candidate, at));
    if (symbol === undefined) throw new ExpressionTextError(unexpectedCharacter(text, at), at);
    tokens.push({ kind: "symbol", text: symbol, start: at, end: at + symbol.length });
    at += symbol.length;
  }
  tokens.push({ kind: "end", text: "", start: text.length, end: text.length });
  return tokens;
}

function unexpectedCharacter(text: string, at: number): string {
  const char = String.fromCodePoint(text.codePointAt(at)!);
  if (char === "'") return "strings are written in double quotes";
  if (char === "=") return "`=` alone is not an operator: equality is `==`";
  if (char === "&" || char === "|") return `\`${char}\` alone is not an operator: write \`${char}${char}\``;
  return `\`${char}\` cannot stand here`;
}

function stringProblem(text: string, at: number): string {
  for (let index = at + 1; index < text.length; index++) {
    const char = text[index]!;
    if (char === '"') break;
    if (char === "\\") {
      if (!/^(?:["\\/bfnrt]|u[0-9A-Fa-f]{4})/.test(text.slice(index + 1, index + 6)))
        return 'a string has an escape JSON does not know (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)';
      index++;
    } else if (char < " ") return "a string holds a control character: write it as an escape (\\n, \\t, \\u0000)";
  }
  return "a string has no closing double quote";
}
