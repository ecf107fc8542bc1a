import {
  FUNCTIONS_PREFIX,
  INFIX_BY_SYMBOL,
  type InfixOperator,
  PATH_MEMBER,
  Precedence,
  PREFIX_NOT,
} from "../../engine/expression-text/expression-notation.ts";
import { CORE_OPERATOR_NAMES } from "../../engine/expression/operators/core-operator-names.ts";
import { VAR_ROOTS } from "../../engine/expression/variable-roots.ts";
import { didYouMean } from "../../engine/names/closest-name.ts";
import type { JsonValue } from "../../engine/value/json-value.ts";
import { ExpressionTextError, type Token, tokenize } from "./expression-tokens.ts";

/** Where a part of an expression is written in its text: UTF-16 offsets, the end excluded. */
export interface TextSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * An expression read from its text: the tree (specification section 4) and where each of its
 * nodes is written, by its path from the expression (`""`, `"args/0"`, `"args/0/var"`; a call's
 * `op` or `fn` at its name or symbol), so that a problem found in the tree points into the text.
 */
export interface ParsedExpressionText {
  readonly tree: JsonValue;
  readonly spans: ReadonlyMap<string, TextSpan>;
  /** Each number as written (`-1.50`), where it starts: read as JSON reads it, its digits counted as a source's are. */
  readonly numbers: readonly { readonly text: string; readonly start: number }[];
}

/** A node as read, before its paths are known. */
interface ReadNode {
  readonly tree: JsonValue;
  readonly span: TextSpan;
  readonly args?: readonly ReadNode[];
  /** Where the operator or function name is written. */
  readonly name?: TextSpan;
  /** In parentheses: an operand of a chain that stays a node of its own (`(a && b) && c`). */
  readonly grouped?: boolean;
}

const ROOTS: ReadonlySet<string> = new Set(VAR_ROOTS);
const LITERALS: ReadonlyMap<string, JsonValue> = new Map<string, JsonValue>([
  ["true", true],
  ["false", false],
  ["null", null],
]);
/** Words other languages use for operators the text writes as symbols. */
const WORDS_FOR_SYMBOLS: ReadonlyMap<string, string> = new Map([
  ["and", "&&"],
  ["or", "||"],
  ["not", "!"],
]);

/** Reads an expression's text (expression-notation.ts), or throws ExpressionTextError at the first mistake. */
export function parseExpressionText(text: string): ParsedExpressionText {
  const { node, numbers } = read(text);
  const spans = new Map<string, TextSpan>();
  record(node, "", spans);
  return { tree: node.tree, spans, numbers };
}

/**
 * The tree alone, without the places of its nodes: what reading a source needs, for every
 * expression of every ruleset; places are asked for again only when a problem needs one.
 */
export function readExpressionTree(text: string): Omit<ParsedExpressionText, "spans"> {
  const { node, numbers } = read(text);
  return { tree: node.tree, numbers };
}

function read(text: string): { node: ReadNode; numbers: ParsedExpressionText["numbers"] } {
  const reader = new ExpressionReader(tokenize(text));
  const node = reader.expression(Precedence.Or);
  reader.expectEnd();
  return { node, numbers: reader.numbers };
}

function record(node: ReadNode, path: string, spans: Map<string, TextSpan>): void {
  spans.set(path, node.span);
  const at = (member: string) => (path === "" ? member : `${path}/${member}`);
  const tree = node.tree;
  if (tree !== null && typeof tree === "object" && !Array.isArray(tree)) {
    if ("var" in tree) spans.set(at("var"), node.span);
    if (node.name !== undefined) spans.set(at("op" in tree ? "op" : "fn"), node.name);
  }
  node.args?.forEach((arg, index) => record(arg, at(`args/${index}`), spans));
}

class ExpressionReader {
  private position = 0;
  readonly numbers: { text: string; start: number }[] = [];

  constructor(private readonly tokens: readonly Token[]) {}

  private peek(ahead = 0): Token {
    return this.tokens[Math.min(this.position + ahead, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.peek();
    if (this.position < this.tokens.length - 1) this.position++;
    return token;
  }

  private isSymbol(symbol: string, ahead = 0): boolean {
    const token = this.peek(ahead);
    return token.kind === "symbol" && token.text === symbol;
  }

  private expect(symbol: string, what: string): Token {
    if (!this.isSymbol(symbol)) throw unexpected(this.peek(), what);
    return this.next();
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.kind !== "end") throw unexpected(token, "an operator or the end of the expression");
  }

  private infixAhead(): InfixOperator | undefined {
    const token = this.peek();
    if (token.kind === "symbol" || (token.kind === "name" && token.text === "in"))
      return INFIX_BY_SYMBOL.get(token.text);
    return undefined;
  }

  /** An expression whose operators bind at least as tightly as `least`. */
  expression(least: number): ReadNode {
    let left = this.prefix();
    for (let infix = this.infixAhead(); infix !== undefined && infix.precedence >= least; infix = this.infixAhead()) {
      const symbol = this.next();
      const name = { start: symbol.start, end: symbol.end };
      const operands = [left, this.expression(infix.precedence + 1)];
      while (infix.chained && this.isSymbol(infix.symbol)) {
        this.next();
        operands.push(this.expression(infix.precedence + 1));
      }
      left = operatorNode(infix.op, operands, name);
      if (infix.precedence === Precedence.Comparison && this.infixAhead()?.precedence === Precedence.Comparison)
        throw new ExpressionTextError(
          "comparisons do not chain: write `a < b && b < c`, or put one in parentheses",
          this.peek().start,
        );
    }
    return left;
  }

  private prefix(): ReadNode {
    const token = this.next();
    const span = { start: token.start, end: token.end };
    switch (token.kind) {
      case "number":
        this.numbers.push({ text: token.text, start: token.start });
        return { tree: Number(token.text), span };
      case "string":
        return { tree: JSON.parse(token.text) as string, span };
      case "quoted-name":
        if (!this.isSymbol("(")) throw unexpected(this.peek(), `\`(\` and the arguments of \`${token.text}\``);
        return this.call("op", token.text, span);
      case "name":
        return this.named(token);
      case "end":
        throw new ExpressionTextError("the expression ends where a value is expected", token.start);
    }
    switch (token.text) {
      case "-": {
        const number = this.peek();
        if (number.kind !== "number")
          throw new ExpressionTextError("`-` before a value is only for a number: write `0 - x`", token.start);
        this.next();
        this.numbers.push({ text: `-${number.text}`, start: token.start });
        return { tree: -Number(number.text), span: { start: token.start, end: number.end } };
      }
      case PREFIX_NOT: {
        const operand = this.expression(Precedence.Prefix);
        return operatorNode("not", [operand], span, token.start);
      }
      case "(": {
        const inner = this.expression(Precedence.Or);
        this.expect(")", "`)`");
        return { ...inner, grouped: true };
      }
      case "[": {
        const items = this.list("]");
        return { tree: { op: "list", args: items.map((item) => item.tree) }, args: items, span: this.spanFrom(token) };
      }
    }
    throw unexpected(token, "a value");
  }

  private spanFrom(first: Token): TextSpan {
    return { start: first.start, end: this.tokens[this.position - 1]!.end };
  }

  /** Arguments up to `close`, separated by commas. */
  private list(close: string): ReadNode[] {
    const items: ReadNode[] = [];
    if (this.isSymbol(close)) {
      this.next();
      return items;
    }
    for (;;) {
      items.push(this.expression(Precedence.Or));
      if (this.isSymbol(",")) this.next();
      else {
        this.expect(close, `\`,\` or \`${close}\``);
        return items;
      }
    }
  }

  private call(kind: "op" | "fn", name: string, nameSpan: TextSpan): ReadNode {
    const open = this.expect("(", "`(`");
    const args = this.list(")");
    const tree: JsonValue = { [kind]: name, args: args.map((arg) => arg.tree) };
    return { tree, args, name: nameSpan, span: { start: nameSpan.start, end: this.spanFrom(open).end } };
  }

  private named(token: Token): ReadNode {
    const span = { start: token.start, end: token.end };
    if (this.isSymbol("(")) return this.call(CORE_OPERATOR_NAMES.has(token.text) ? "op" : "fn", token.text, span);
    if (
      token.text === FUNCTIONS_PREFIX &&
      this.isSymbol(".") &&
      this.peek(1).kind === "name" &&
      this.isSymbol("(", 2)
    ) {
      this.next();
      const name = this.next();
      return this.call("fn", name.text, { start: name.start, end: name.end });
    }
    const literal = LITERALS.get(token.text);
    if (literal !== undefined) return { tree: literal, span };
    if (ROOTS.has(token.text)) return this.path(token);
    throw new ExpressionTextError(unknownName(token.text), token.start);
  }

  /** `data.items[0]["first-name"]`: the `var` path `data.items.0.first-name`. */
  private path(root: Token): ReadNode {
    const members = [root.text];
    for (;;) {
      if (this.isSymbol(".")) {
        this.next();
        const member = this.next();
        if (member.kind !== "name") throw unexpected(member, "a member name after `.`");
        members.push(member.text);
      } else if (this.isSymbol("[")) {
        this.next();
        const member = this.next();
        if (member.kind === "number" && /^[0-9]+$/.test(member.text)) members.push(member.text);
        else if (member.kind === "string") {
          const name = JSON.parse(member.text) as string;
          if (!PATH_MEMBER.test(name))
            throw new ExpressionTextError("a member name in a path holds letters, digits, _ and - only", member.start);
          members.push(name);
        } else throw unexpected(member, "a list index or a member name in double quotes");
        this.expect("]", "`]`");
      } else return { tree: { var: members.join(".") }, span: this.spanFrom(root) };
    }
  }
}

/** An operator's node; a chain's operands that are the same operator and not in parentheses join it. */
function operatorNode(op: string, operands: readonly ReadNode[], name: TextSpan, start?: number): ReadNode {
  const span = { start: start ?? operands[0]!.span.start, end: operands.at(-1)!.span.end };
  return { tree: { op, args: operands.map((operand) => operand.tree) }, args: operands, name, span };
}

function unexpected(token: Token, expected: string): ExpressionTextError {
  const symbol = token.kind === "name" ? WORDS_FOR_SYMBOLS.get(token.text.toLowerCase()) : undefined;
  if (symbol !== undefined) return new ExpressionTextError(`\`${token.text}\` is written \`${symbol}\``, token.start);
  const found = token.kind === "end" ? "the end of the expression" : `\`${token.text}\``;
  return new ExpressionTextError(`expected ${expected}, found ${found}`, token.start);
}

function unknownName(name: string): string {
  const symbol = WORDS_FOR_SYMBOLS.get(name.toLowerCase());
  if (symbol !== undefined) return `\`${name}\` is written \`${symbol}\``;
  const path = ROOTS.has(name.split(".")[0]!) ? "" : ` (did you mean \`data.${name}\`?)`;
  const root = didYouMean(name, VAR_ROOTS);
  return `\`${name}\` is not a variable root (${VAR_ROOTS.join(", ")}) nor a call${root !== "" ? root : path}`;
}
