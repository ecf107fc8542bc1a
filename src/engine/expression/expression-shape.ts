import type { Value, ValueObject } from "../value/value-kind.ts";

/**
 * How an expression object is recognized (specification 4.1): `{var}` alone, or `{op, args}` /
 * `{fn, args}` with exactly those two members. Shared by the closures (prepare-expression.ts) and
 * the generated code (generated-expression.ts), so both read the same objects as the same nodes.
 */

/** The path of a well-formed `{"var": path}` node, else undefined. */
export function variablePath(node: ValueObject): string | undefined {
  return Object.keys(node).length === 1 && typeof node.var === "string" && Object.hasOwn(node, "var")
    ? node.var
    : undefined;
}

/** The arguments of an object with exactly two members, one of them an `args` list, else undefined. */
export function callArguments(node: ValueObject): readonly Value[] | undefined {
  return Object.keys(node).length === 2 && Object.hasOwn(node, "args") && Array.isArray(node.args)
    ? node.args
    : undefined;
}

/** The operator name of an `{op, args}` node whose `args` callArguments found, else undefined. */
export function operatorOf(node: ValueObject): string | undefined {
  return typeof node.op === "string" && Object.hasOwn(node, "op") ? node.op : undefined;
}

/** The function name of an `{fn, args}` node whose `args` callArguments found, else undefined. */
export function functionOf(node: ValueObject): string | undefined {
  return typeof node.fn === "string" && Object.hasOwn(node, "fn") ? node.fn : undefined;
}
