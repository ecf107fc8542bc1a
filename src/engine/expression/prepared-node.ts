import type { Value } from "../value/value-kind.ts";
import type { Scope } from "./scope.ts";

/**
 * A prepared expression node: the expression's JSON read once into a closure. `base` is the depth
 * of the function call whose body the node belongs to (0 outside function bodies); a node at
 * relative depth `r` is evaluated at depth `base + r` (specification 4.7).
 */
export type Node = (scope: Scope, base: number) => Value;

/** How an operator turns its prepared arguments into a node. */
export interface OperatorDefinition {
  readonly minArgs: number;
  readonly maxArgs: number;
  build(args: readonly Node[], site: OperatorSite): Node;
}

/** Where an operator call sits, for operators that need more than their argument nodes. */
export interface OperatorSite {
  readonly name: string;
  /** The arguments as written, for operators that look at literals (`matches`). */
  readonly rawArgs: readonly unknown[];
}
