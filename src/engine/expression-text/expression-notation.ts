/**
 * The notation of expressions written as text (DECISIONS.md, "Expressions written as text"): which
 * operators are written between their operands, how tightly each binds, and how path members
 * are written. The printer (print-expression-text.ts) and the parser (src/compiler/expression-text)
 * both read this table, so that they cannot disagree.
 *
 * Precedence, loosest first: `||`, `&&`, the comparisons and `in` (which do not chain), `+ -`,
 * `* / %` (both left to right), the prefix `!`, then calls, paths, literals, `[lists]` and
 * parentheses.
 */

export const Precedence = {
  Or: 1,
  And: 2,
  Comparison: 3,
  Sum: 4,
  Product: 5,
  Prefix: 6,
  Atom: 7,
} as const;

export interface InfixOperator {
  /** The operator's name in the tree: `lte`. */
  readonly op: string;
  /** How it is written: `<=`. */
  readonly symbol: string;
  readonly precedence: number;
  /** `&&` and `||` take any number of operands (`a && b && c` is one `and`); the others two. */
  readonly chained: boolean;
}

const INFIX_LIST: readonly InfixOperator[] = [
  { op: "or", symbol: "||", precedence: Precedence.Or, chained: true },
  { op: "and", symbol: "&&", precedence: Precedence.And, chained: true },
  { op: "eq", symbol: "==", precedence: Precedence.Comparison, chained: false },
  { op: "ne", symbol: "!=", precedence: Precedence.Comparison, chained: false },
  { op: "lt", symbol: "<", precedence: Precedence.Comparison, chained: false },
  { op: "lte", symbol: "<=", precedence: Precedence.Comparison, chained: false },
  { op: "gt", symbol: ">", precedence: Precedence.Comparison, chained: false },
  { op: "gte", symbol: ">=", precedence: Precedence.Comparison, chained: false },
  { op: "in", symbol: "in", precedence: Precedence.Comparison, chained: false },
  { op: "add", symbol: "+", precedence: Precedence.Sum, chained: false },
  { op: "sub", symbol: "-", precedence: Precedence.Sum, chained: false },
  { op: "mul", symbol: "*", precedence: Precedence.Product, chained: false },
  { op: "div", symbol: "/", precedence: Precedence.Product, chained: false },
  { op: "mod", symbol: "%", precedence: Precedence.Product, chained: false },
];

/** Infix operators by their name in the tree. */
export const INFIX_BY_OP: ReadonlyMap<string, InfixOperator> = new Map(INFIX_LIST.map((infix) => [infix.op, infix]));

/** Infix operators by how they are written. */
export const INFIX_BY_SYMBOL: ReadonlyMap<string, InfixOperator> = new Map(
  INFIX_LIST.map((infix) => [infix.symbol, infix]),
);

/** `!x` is `not`; `[a, b]` is `list`. */
export const PREFIX_NOT = "!";

/** A path member written after a dot (`data.amount`); others are written `[0]` or `["first-name"]`. */
export const DOTTED_MEMBER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A member written as a list index, `data.items[0]`: digits as JSON writes a whole number (`01` is written `["01"]`). */
export const INDEX_MEMBER = /^(?:0|[1-9][0-9]*)$/;

/** What a member of a `var` path may hold (the schema's VAR_PATTERN): written `["..."]` when not dotted or an index. */
export const PATH_MEMBER = /^[A-Za-z0-9_-]+$/;

/** A call of a function whose name is also a core operator's is written `functions.<name>(...)`. */
export const FUNCTIONS_PREFIX = "functions";
