import type { Node } from "./prepared-node.ts";

/**
 * What preparing needs of a tracer (explanation/expression-trace.ts): a wrapper for every node it
 * prepares, told the node's place among its parent's arguments, and one for each expression a rule
 * holds, told its role (`when`, `assert`, `assign/0`, ...) and given a way to prepare the same
 * expression untraced (for evaluations it need not watch). Plans made for plain evaluation have
 * none, so their nodes are exactly what they were.
 */
export interface NodeTracer {
  node(inner: Node, expression: unknown, index: number): Node;
  root(inner: Node, role: string, untraced: () => Node): Node;
}
