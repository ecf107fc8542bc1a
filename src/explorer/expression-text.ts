import type { JsonValue } from "../browser/rule-cascade.ts";

/**
 * Expressions as people read them (`data.amount <= params.singleTransferLimit`,
 * `all(data.invoices, item.amount > 0)`), for rule cards and the Why view. Plain functions of
 * JSON, no DOM: the text is set as text, never parsed as HTML.
 */

/** How tightly an operator binds: a higher number binds tighter. Calls, variables and literals are atoms. */
const ATOM = 9;
const NOT = 3;
const CONDITIONAL = 0;

interface Infix {
  readonly symbol: string;
  readonly precedence: number;
  /** `a + b + c` reads the same however it is grouped; `a - (b - c)` does not. */
  readonly associative: boolean;
  /** And/or take any number of operands; the others exactly two. */
  readonly variadic?: boolean;
}

const INFIX: Readonly<Record<string, Infix>> = {
  or: { symbol: "or", precedence: 1, associative: true, variadic: true },
  and: { symbol: "and", precedence: 2, associative: true, variadic: true },
  eq: { symbol: "==", precedence: 4, associative: false },
  ne: { symbol: "!=", precedence: 4, associative: false },
  lt: { symbol: "<", precedence: 4, associative: false },
  lte: { symbol: "<=", precedence: 4, associative: false },
  gt: { symbol: ">", precedence: 4, associative: false },
  gte: { symbol: ">=", precedence: 4, associative: false },
  in: { symbol: "in", precedence: 4, associative: false },
  add: { symbol: "+", precedence: 5, associative: true },
  sub: { symbol: "-", precedence: 5, associative: false },
  mul: { symbol: "*", precedence: 6, associative: true },
  div: { symbol: "/", precedence: 6, associative: false },
  mod: { symbol: "%", precedence: 6, associative: false },
};

interface Written {
  readonly text: string;
  readonly precedence: number;
}

type JsonObjectLike = { readonly [key: string]: JsonValue };

/** The arguments of `{op, args}` / `{fn, args}` (exactly those two members), as the engine recognizes them. */
function callArguments(node: JsonObjectLike): readonly JsonValue[] | undefined {
  const keys = Object.keys(node);
  return keys.length === 2 && Object.hasOwn(node, "args") && Array.isArray(node.args) ? node.args : undefined;
}

function atom(text: string): Written {
  return { text, precedence: ATOM };
}

/** An operand, in parentheses when it binds less tightly than its place asks. */
function operand(written: Written, least: number): string {
  return written.precedence >= least ? written.text : `(${written.text})`;
}

function call(name: string, args: readonly JsonValue[]): Written {
  return atom(`${name}(${args.map((arg) => write(arg).text).join(", ")})`);
}

function writeOperator(name: string, args: readonly JsonValue[]): Written {
  const infix = INFIX[name];
  if (infix !== undefined && (infix.variadic ? args.length >= 2 : args.length === 2)) {
    const written = args.map(write);
    // Left to right: the first operand may bind as loosely as the operator when it is associative
    // or the operator is arithmetic (`a - b - c` is `(a - b) - c`); comparisons never chain, and
    // `and` inside `or` (or the reverse) is bracketed, since few readers know which binds first.
    const text = written
      .map((arg, index) => {
        if (infix.variadic && arg.precedence < NOT && arg.precedence !== infix.precedence) return `(${arg.text})`;
        const chains = infix.associative || (index === 0 && infix.precedence >= 5);
        return operand(arg, chains ? infix.precedence : infix.precedence + 1);
      })
      .join(` ${infix.symbol} `);
    return { text, precedence: infix.precedence };
  }
  if (name === "not" && args.length === 1) return { text: `not ${operand(write(args[0]!), ATOM)}`, precedence: NOT };
  if (name === "if" && args.length === 3) {
    const [condition, then, otherwise] = args.map(write) as [Written, Written, Written];
    return {
      text: `if ${condition.text} then ${operand(then, CONDITIONAL + 1)} else ${otherwise.text}`,
      precedence: CONDITIONAL,
    };
  }
  if (name === "list") return atom(`[${args.map((arg) => write(arg).text).join(", ")}]`);
  return call(name, args);
}

function write(expression: JsonValue): Written {
  if (expression === null || typeof expression !== "object") return atom(literalText(expression));
  if (Array.isArray(expression)) return atom(JSON.stringify(expression));
  const keys = Object.keys(expression);
  if (keys.length === 1 && typeof expression.var === "string")
    return atom(expression.var === "" ? "(the whole scope)" : expression.var);
  const args = callArguments(expression);
  if (args !== undefined && typeof expression.op === "string") return writeOperator(expression.op, args);
  if (args !== undefined && typeof expression.fn === "string") return call(expression.fn, args);
  // Not an expression the engine accepts: shown as the manifest holds it.
  return atom(JSON.stringify(expression));
}

function literalText(value: string | number | boolean | null): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** An expression of a manifest as readable text: infix comparisons, logic and arithmetic, calls for the rest. */
export function expressionText(expression: JsonValue): string {
  return write(expression).text;
}

/** Whether an expression is a literal (its value is itself, so the Why view does not repeat it). */
export function isLiteral(expression: JsonValue): boolean {
  return expression === null || typeof expression !== "object";
}
