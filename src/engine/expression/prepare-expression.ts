import { fail } from "../errors.ts";
import type { ValueObject } from "../value/value-kind.ts";
import { callCustomOperator, NO_CUSTOM_OPERATORS, type CustomOperators } from "./custom-operators.ts";
import { MAX_EXPRESSION_DEPTH, MAX_FUNCTION_CALL_DEPTH } from "./expression-limits.ts";
import { EMPTY_FUNCTION_TABLE, type FunctionTable } from "./function-table.ts";
import { coreOperators } from "./operators/core-operators.ts";
import { callArguments, functionOf, operatorOf, variablePath } from "./expression-shape.ts";
import { generatedExpression } from "./generated-expression.ts";
import type { NodeTracer } from "./node-tracer.ts";
import type { Node } from "./prepared-node.ts";
import { readVariable } from "./variable-reference.ts";

/**
 * Reads an expression's JSON once into closures (specification section 4). Everything an
 * expression can get wrong (an unknown operator, a wrong argument count, a malformed node) becomes
 * a node that raises its evaluation error when, and only when, evaluation reaches it.
 */
export interface PrepareContext {
  readonly functions: FunctionTable;
  readonly operators: CustomOperators;
  /** Whether expressions may be compiled to JavaScript functions (false where `eval` is forbidden). */
  readonly codeGeneration: boolean;
  /** Only for explanations and coverage: every node is wrapped to record its value (closures only, no code generation). */
  readonly trace?: NodeTracer;
}

export const EMPTY_PREPARE_CONTEXT: PrepareContext = {
  functions: EMPTY_FUNCTION_TABLE,
  operators: NO_CUSTOM_OPERATORS,
  codeGeneration: true,
};

/**
 * Prepares an expression evaluated by itself at depth 1 (a rule's expression, the `expression`
 * command). `role` names the expression's place in its rule, for a tracing context.
 */
export function prepareExpression(
  expression: unknown,
  context: PrepareContext = EMPTY_PREPARE_CONTEXT,
  role = "",
): Node {
  const trace = context.trace;
  if (trace !== undefined)
    return trace.root(prepareAt(expression, 1, context, false, 0), role, () =>
      prepareExpression(expression, { ...context, trace: undefined }),
    );
  // Outside function bodies a node's depth is its depth in the tree, which preparing bounds, so
  // only function bodies need a depth check when they run.
  const closureNode = (node: unknown, depth: number): Node => prepareAt(node, depth, context, false, 0);
  return (
    (context.codeGeneration ? generatedExpression(expression, closureNode) : undefined) ?? closureNode(expression, 1)
  );
}

const tooDeep: Node = () => fail(`expression nested more than ${MAX_EXPRESSION_DEPTH} deep`);

function failing(message: string): Node {
  return () => fail(message);
}

/** `index` is the node's place among its parent's arguments (0 for a root), for a tracing context. */
function prepareAt(
  expression: unknown,
  depth: number,
  context: PrepareContext,
  inFunctionBody: boolean,
  index: number,
): Node {
  if (context.trace !== undefined)
    return context.trace.node(prepareUntraced(expression, depth, context, inFunctionBody), expression, index);
  return prepareUntraced(expression, depth, context, inFunctionBody);
}

function prepareUntraced(expression: unknown, depth: number, context: PrepareContext, inFunctionBody: boolean): Node {
  if (depth > MAX_EXPRESSION_DEPTH) return tooDeep;
  const node = prepareNode(expression, depth, context, inFunctionBody);
  if (!inFunctionBody) return node;
  return (scope, base) => (base + depth > MAX_EXPRESSION_DEPTH ? tooDeep(scope, base) : node(scope, base));
}

function prepareNode(expression: unknown, depth: number, context: PrepareContext, inFunctionBody: boolean): Node {
  switch (typeof expression) {
    case "string":
    case "number":
    case "boolean": {
      const literal = expression;
      return () => literal;
    }
    case "object":
      if (expression === null) return () => null;
      if (Array.isArray(expression)) return failing("a list is not an expression");
      return prepareObject(expression as ValueObject, depth, context, inFunctionBody);
    default:
      return failing("not an expression");
  }
}

const NOT_AN_EXPRESSION = "not an expression: expected a literal, {var}, {op, args} or {fn, args}";

function prepareObject(node: ValueObject, depth: number, context: PrepareContext, inFunctionBody: boolean): Node {
  const path = variablePath(node);
  if (path !== undefined) return readVariable(path, context.codeGeneration);
  const rawArgs = callArguments(node);
  if (rawArgs === undefined) return failing(NOT_AN_EXPRESSION);
  const prepareArgs = (): Node[] =>
    rawArgs.map((arg, index) => prepareAt(arg, depth + 1, context, inFunctionBody, index));
  const fn = functionOf(node);
  if (fn !== undefined) return prepareCall(fn, rawArgs.length, prepareArgs, depth, context);
  const name = operatorOf(node);
  if (name === undefined) return failing(NOT_AN_EXPRESSION);
  const definition = coreOperators.get(name);
  if (definition) {
    const count = rawArgs.length;
    if (count < definition.minArgs || count > definition.maxArgs)
      return failing(arityMessage(name, definition.minArgs, definition.maxArgs, count));
    return definition.build(prepareArgs(), { name, rawArgs });
  }
  if (name.startsWith("x-")) {
    const args = prepareArgs();
    const operator = context.operators.get(name);
    return (scope, base) =>
      callCustomOperator(
        name,
        operator,
        args.map((arg) => arg(scope, base)),
      );
  }
  return failing(`unknown operator ${name}`);
}

function arityMessage(name: string, min: number, max: number, count: number): string {
  if (min === max) return `${name} takes ${min} argument(s), got ${count}`;
  if (max === Infinity) return `${name} takes at least ${min} argument(s), got ${count}`;
  return `${name} takes ${min} to ${max} arguments, got ${count}`;
}

/** `{"fn": name, "args": [...]}` (specification 4.5): lexical scope, exact arity, call depth 32. */
function prepareCall(
  name: string,
  count: number,
  prepareArgs: () => Node[],
  depth: number,
  context: PrepareContext,
): Node {
  const fn = context.functions.get(name);
  if (!fn) return failing(`unknown function ${name}`);
  if (fn.params.length !== count)
    return failing(`function ${name} takes ${fn.params.length} argument(s), got ${count}`);
  const args = prepareArgs();
  const params = fn.params;
  return (scope, base) => {
    if (scope.calls + 1 > MAX_FUNCTION_CALL_DEPTH)
      fail(`function calls nested more than ${MAX_FUNCTION_CALL_DEPTH} deep`);
    const bound: ValueObject = Object.create(null);
    for (let i = 0; i < args.length; i++) bound[params[i]!] = args[i]!(scope, base);
    // The body is one level below the call: its root sits at depth base + depth + 1. Only a call
    // deep enough for some node of the body to pass the limit needs a check at every node.
    const deepest = (fn.deepestNode ??= deepestNode(fn.bodyExpression, 1));
    // A traced call shows its arguments, not the body's nodes: bodies are prepared untraced.
    const bodyContext = context.trace === undefined ? context : { ...context, trace: undefined };
    const body =
      base + depth + deepest <= MAX_EXPRESSION_DEPTH
        ? (fn.body ??= prepareExpression(fn.bodyExpression, bodyContext))
        : (fn.checkedBody ??= prepareAt(fn.bodyExpression, 1, bodyContext, true, 0));
    return body(scope.forFunctionBody(bound), base + depth);
  };
}

/**
 * The depth of an expression's deepest node, counting the arguments of every object that has an
 * `args` list (also where preparing makes the object a failing node), so never less than the
 * deepest node prepared; past the limit it stops counting.
 */
function deepestNode(expression: unknown, depth: number): number {
  if (depth > MAX_EXPRESSION_DEPTH || typeof expression !== "object" || expression === null) return depth;
  const args = (expression as ValueObject).args;
  if (!Array.isArray(args)) return depth;
  let deepest = depth;
  for (const arg of args) deepest = Math.max(deepest, deepestNode(arg, depth + 1));
  return deepest;
}
