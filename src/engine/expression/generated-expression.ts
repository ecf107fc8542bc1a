import { compare } from "../number/arithmetic.ts";
import { valuesEqual } from "../value/value-equality.ts";
import { typeName, type ValueObject } from "../value/value-kind.ts";
import { expectBoolean, expectNumber } from "./argument-checks.ts";
import { MAX_EXPRESSION_DEPTH } from "./expression-limits.ts";
import { callArguments, operatorOf, variablePath } from "./expression-shape.ts";
import { compiledFactory } from "./generated-code.ts";
import { coreOperators } from "./operators/core-operators.ts";
import type { Node } from "./prepared-node.ts";
import { readVariable } from "./variable-reference.ts";

/**
 * An expression compiled to one JavaScript function. The closures of prepare-expression.ts call
 * each other through shared code, so every call between nodes is an indirect call the JIT cannot
 * follow; generated code is the expression's own, with the logic and comparison operators written
 * out in place and every other operator built as prepare-expression.ts builds it, on arguments
 * that are generated too. Anything the generator does not write out (a node that fails when
 * reached, a function call, a custom operator) is the closure prepare-expression.ts makes for it,
 * so the two agree by construction where they share code, and the golden corpora, which run every
 * case both ways, pin the rest.
 */

/** The closure prepare-expression.ts makes for a node at a depth (outside function bodies). */
export type ClosureNode = (expression: unknown, depth: number) => Node;

const HELPERS = { expectBoolean, expectNumber, valuesEqual, compare, typeName };
const HELPER_NAMES = [...Object.keys(HELPERS), "k"];
const HELPER_VALUES = Object.values(HELPERS);

/**
 * The expression as one generated function, or undefined when generating it gains nothing (no
 * logic or comparison operator in it) or the platform refuses generated code.
 */
export function generatedExpression(expression: unknown, closureNode: ClosureNode): Node | undefined {
  if (!writtenOut(expression)) return undefined;
  const code = new ExpressionCode(closureNode);
  const source = code.source(code.arrow(expression, 1));
  // The source is its own key: the same expression twice compiles once.
  const factory = compiledFactory(source, HELPER_NAMES, () => source);
  return factory?.(...HELPER_VALUES, code.constants) as Node | undefined;
}

/** Whether an operator the generator writes out occurs in the expression (else there is nothing to gain). */
function writtenOut(expression: unknown, depth = 1): boolean {
  const name = depth <= MAX_EXPRESSION_DEPTH ? operatorName(expression) : undefined;
  if (name === undefined) return false;
  return (
    Object.hasOwn(TEMPLATES, name) ||
    ((expression as ValueObject).args as readonly unknown[]).some((arg) => writtenOut(arg, depth + 1))
  );
}

/** The name of a well-formed `{op, args}` node of a core operator with a fitting argument count. */
function operatorName(expression: unknown): string | undefined {
  const node = asObject(expression);
  const args = node && callArguments(node);
  const name = args && operatorOf(node!);
  const definition = name === undefined ? undefined : coreOperators.get(name);
  return definition && args!.length >= definition.minArgs && args!.length <= definition.maxArgs ? name : undefined;
}

/** An expression that is an object (not a list), as preparing reads one. */
function asObject(expression: unknown): ValueObject | undefined {
  return typeof expression === "object" && expression !== null && !Array.isArray(expression)
    ? (expression as ValueObject)
    : undefined;
}

/** JavaScript for an operator written out in place, given its arguments' code and fresh temporaries. */
type Template = (args: readonly string[], temporary: () => string, rawArgs: readonly unknown[]) => string;

/** A literal that deep equality compares as `===` does: a string, a boolean or null (never a number, which may meet a decimal). */
const comparesStrictly = (raw: readonly unknown[]): boolean =>
  raw.some((arg) => typeof arg === "string" || typeof arg === "boolean" || arg === null);

const ordering =
  (name: string, test: string): Template =>
  ([a, b]) =>
    `(compare(expectNumber(${a}, "${name}"), expectNumber(${b}, "${name}")) ${test})`;

/** Written as the closures of logic-operators.ts and comparison-operators.ts evaluate them. */
const TEMPLATES: Readonly<Record<string, Template>> = {
  and: (args) => (args.length === 0 ? "true" : `(${args.map((arg) => `expectBoolean(${arg}, "and")`).join(" && ")})`),
  or: (args) => (args.length === 0 ? "false" : `(${args.map((arg) => `expectBoolean(${arg}, "or")`).join(" || ")})`),
  not: ([a]) => `(!expectBoolean(${a}, "not"))`,
  if: ([condition, then, otherwise]) => `(expectBoolean(${condition}, "if") ? ${then} : ${otherwise})`,
  coalesce: (args, temporary) =>
    args.reduceRight((rest, arg) => {
      const value = temporary();
      return `((${value} = ${arg}) !== null ? ${value} : ${rest})`;
    }, "null"),
  eq: ([a, b], _, raw) => (comparesStrictly(raw) ? `(${a} === ${b})` : `valuesEqual(${a}, ${b})`),
  ne: ([a, b], _, raw) => (comparesStrictly(raw) ? `(${a} !== ${b})` : `(!valuesEqual(${a}, ${b}))`),
  lt: ordering("lt", "< 0"),
  lte: ordering("lte", "<= 0"),
  gt: ordering("gt", "> 0"),
  gte: ordering("gte", ">= 0"),
  exists: ([a]) => `(${a} !== null)`,
  typeOf: ([a]) => `typeName(${a})`,
};

/** The source of one expression's factory and the values it closes over. */
class ExpressionCode {
  readonly constants: unknown[] = [];
  private readonly preamble: string[] = [];

  constructor(private readonly closureNode: ClosureNode) {}

  /** The factory's body: constants unpacked, operators built, the expression's function returned. */
  source(main: string): string {
    const unpacked = this.constants.map((_, index) => `k${index} = k[${index}]`);
    return [unpacked.length > 0 ? `const ${unpacked.join(", ")};` : "", ...this.preamble, `return ${main};`].join("\n");
  }

  /** A node function for an expression at a depth, with its own temporaries. */
  arrow(expression: unknown, depth: number): string {
    let temporaries = 0;
    const body = this.node(expression, depth, () => `t${temporaries++}`);
    const declared = Array.from({ length: temporaries }, (_, index) => `t${index}`);
    return `(scope, base) => { ${declared.length > 0 ? `let ${declared.join(", ")}; ` : ""}return ${body}; }`;
  }

  private constant(value: unknown): string {
    return `k${this.constants.push(value) - 1}`;
  }

  private closure(expression: unknown, depth: number): string {
    return `${this.constant(this.closureNode(expression, depth))}(scope, base)`;
  }

  private node(expression: unknown, depth: number, temporary: () => string): string {
    if (depth > MAX_EXPRESSION_DEPTH) return this.closure(expression, depth);
    switch (typeof expression) {
      case "string":
        return JSON.stringify(expression);
      case "boolean":
        return String(expression);
      case "number":
        return Object.is(expression, -0) ? "(-0)" : `(${String(expression)})`;
    }
    if (expression === null) return "null";
    const object = asObject(expression);
    const variable = object && variablePath(object);
    if (variable !== undefined) return `${this.constant(readVariable(variable, true))}(scope)`;
    const name = operatorName(expression);
    if (name === undefined) return this.closure(expression, depth);
    const rawArgs = (expression as ValueObject).args as readonly unknown[];
    const template = Object.hasOwn(TEMPLATES, name) ? TEMPLATES[name] : undefined;
    if (template)
      return template(
        rawArgs.map((arg) => this.node(arg, depth + 1, temporary)),
        temporary,
        rawArgs,
      );
    // Any other core operator, built on generated argument functions as prepare-expression.ts builds it on closures.
    const args = rawArgs.map((arg) => this.arrow(arg, depth + 1));
    const built = `n${this.preamble.length}`;
    this.preamble.push(
      `const ${built} = ${this.constant(coreOperators.get(name))}.build([${args.join(", ")}], ${this.constant({ name, rawArgs })});`,
    );
    return `${built}(scope, base)`;
  }
}
