import { CORE_OPERATOR_NAMES } from "../expression/operators/core-operator-names.ts";
import { VAR_ROOTS } from "../expression/variable-roots.ts";
import {
  DOTTED_MEMBER,
  FUNCTIONS_PREFIX,
  INDEX_MEMBER,
  INFIX_BY_OP,
  PATH_MEMBER,
  Precedence,
  PREFIX_NOT,
} from "./expression-notation.ts";

/**
 * An expression tree as text (expression-notation.ts): the shortest text the parser reads back as
 * the same tree. Infix where the operator has one and its arguments are as many as it takes,
 * parentheses only where the tree's nesting needs them (`a && (b && c)` is two `and`s, `a && b &&
 * c` one), a call by name otherwise. `undefined` when the value is not an expression the text can
 * hold (an object with other members, a `var` the schema refuses): it stays a tree.
 */
export function printExpressionText(expression: unknown): string | undefined {
  try {
    return written(expression).text;
  } catch (error) {
    if (error instanceof NotPrintable) return undefined;
    throw error;
  }
}

/**
 * An expression as a person reads it: its text, or, where a part cannot be text, that part as the
 * JSON it is (inside backquotes, so that it is never taken for text).
 */
export function readableExpressionText(expression: unknown): string {
  return printExpressionText(expression) ?? written(expression, true).text;
}

/**
 * Readable texts (readableExpressionText) of expressions and of every part of them, each part
 * printed once: a full explanation shows the text of every node, and a node's text holds its
 * arguments'. Parts are remembered by object, so one is kept only as long as the expressions it
 * printed stay as they are (a prepared plan's).
 */
export class ReadableExpressionTexts {
  private readonly parts = new WeakMap<object, Written>();

  of(expression: unknown): string {
    return written(expression, true, this.parts).text;
  }
}

class NotPrintable extends Error {}

interface Written {
  readonly text: string;
  readonly precedence: number;
}

const ROOTS: ReadonlySet<string> = new Set(VAR_ROOTS);

function atom(text: string): Written {
  return { text, precedence: Precedence.Atom };
}

/** Parts already written, by object: a readable text's arguments are written the same wherever they stand. */
type WrittenParts = WeakMap<object, Written>;

function written(expression: unknown, readably = false, parts?: WrittenParts): Written {
  if (parts === undefined || typeof expression !== "object" || expression === null)
    return writtenPart(expression, readably, parts);
  let part = parts.get(expression);
  if (part === undefined) parts.set(expression, (part = writtenPart(expression, readably, parts)));
  return part;
}

function writtenPart(expression: unknown, readably: boolean, parts: WrittenParts | undefined): Written {
  if (expression === null || typeof expression === "boolean" || typeof expression === "string")
    return atom(JSON.stringify(expression));
  if (typeof expression === "number") return atom(numberText(expression, readably));
  if (typeof expression !== "object" || Array.isArray(expression)) return notPrintable(expression, readably);
  const node = expression as Record<string, unknown>;
  const keys = Object.keys(node);
  if (keys.length === 1 && typeof node.var === "string") {
    const path = pathText(node.var);
    return path === undefined ? notPrintable(node, readably) : atom(path);
  }
  if (keys.length !== 2 || !Array.isArray(node.args)) return notPrintable(node, readably);
  const args = node.args as readonly unknown[];
  if (typeof node.op === "string") return operatorText(node.op, args, readably, parts);
  if (typeof node.fn === "string" && DOTTED_MEMBER.test(node.fn)) {
    const name = CORE_OPERATOR_NAMES.has(node.fn) ? `${FUNCTIONS_PREFIX}.${node.fn}` : node.fn;
    return atom(callText(name, args, readably, parts));
  }
  return notPrintable(node, readably);
}

function notPrintable(expression: unknown, readably: boolean): Written {
  if (readably) return atom(`\`${JSON.stringify(expression)}\``);
  throw new NotPrintable();
}

/**
 * A number as JavaScript writes its shortest form, which reads back as the same double; -0 kept.
 * No text reads as infinity (a literal past the largest double parses as one): people read `Infinity`.
 */
function numberText(value: number, readably: boolean): string {
  if (!Number.isFinite(value) && !readably) throw new NotPrintable();
  return Object.is(value, -0) ? "-0" : String(value);
}

/** `data.items[0].name`, `data["first-name"]`: undefined for a path the schema refuses. */
function pathText(path: string): string | undefined {
  const [root, ...members] = path.split(".");
  if (root === undefined || !ROOTS.has(root)) return undefined;
  let text = root;
  for (const member of members) {
    if (INDEX_MEMBER.test(member)) text += `[${member}]`;
    else if (DOTTED_MEMBER.test(member)) text += `.${member}`;
    else if (PATH_MEMBER.test(member)) text += `[${JSON.stringify(member)}]`;
    else return undefined;
  }
  return text;
}

function callText(name: string, args: readonly unknown[], readably: boolean, parts: WrittenParts | undefined): string {
  return `${name}(${args.map((arg) => written(arg, readably, parts).text).join(", ")})`;
}

/** An operand in parentheses when it binds less tightly than `least`. */
function operand(argument: Written, least: number): string {
  return argument.precedence >= least ? argument.text : `(${argument.text})`;
}

function operatorText(
  op: string,
  args: readonly unknown[],
  readably: boolean,
  parts: WrittenParts | undefined,
): Written {
  const infix = INFIX_BY_OP.get(op);
  if (infix !== undefined && (infix.chained ? args.length >= 2 : args.length === 2)) {
    const [first, ...rest] = args.map((arg) => written(arg, readably, parts));
    // A chain's operands bind tighter than it (one that is the same operator is a nested one);
    // comparisons do not chain; arithmetic groups from the left.
    const leftLeast =
      infix.chained || infix.precedence === Precedence.Comparison ? infix.precedence + 1 : infix.precedence;
    const text = [operand(first!, leftLeast), ...rest.map((arg) => operand(arg, infix.precedence + 1))].join(
      ` ${infix.symbol} `,
    );
    return { text, precedence: infix.precedence };
  }
  if (op === "not" && args.length === 1)
    return {
      text: `${PREFIX_NOT}${operand(written(args[0], readably, parts), Precedence.Prefix)}`,
      precedence: Precedence.Prefix,
    };
  if (op === "list") return atom(`[${args.map((arg) => written(arg, readably, parts).text).join(", ")}]`);
  if (CORE_OPERATOR_NAMES.has(op)) return atom(callText(op, args, readably, parts));
  if (op.startsWith("x-")) return atom(callText(`\`${op}\``, args, readably, parts));
  return notPrintable({ op, args }, readably);
}
