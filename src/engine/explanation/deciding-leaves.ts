import { operatorOf } from "../expression/expression-shape.ts";
import { isValueObject } from "../value/value-kind.ts";
import type { ExplainedNode } from "./explanation.ts";

/**
 * The JSON Pointers (from `at`) of the smallest set of leaves that gave a boolean node its value:
 * through `and` the false arguments of a false one (every argument of a true one), through `or`
 * the true arguments of a true one (every argument of a false one), through `not` its operand,
 * through `if` the branch taken. Any other boolean node (a comparison, `exists`, `in`, a
 * collection, a function call, a variable) is a leaf. Only evaluated arguments are followed.
 */
export function decidingLeaves(node: ExplainedNode, at: string): string[] {
  const leaves: string[] = [];
  collect(node, at, leaves);
  return leaves;
}

const NO_ARGS: readonly ExplainedNode[] = [];

function collect(node: ExplainedNode, at: string, leaves: string[]): void {
  const value = node.value;
  const operator =
    typeof value === "boolean" && isValueObject(node.expr) ? operatorOf(node.expr as Record<string, never>) : undefined;
  const args = node.args ?? NO_ARGS;
  switch (operator) {
    case "and":
    case "or":
      // The arguments that agree with the result decided it: a false `and` is false by its false arguments.
      for (let index = 0; index < args.length; index++)
        if (args[index]!.value === value) collect(args[index]!, `${at}/args/${index}`, leaves);
      return;
    case "not":
      if (args[0]?.value !== undefined) collect(args[0], `${at}/args/0`, leaves);
      return;
    case "if": {
      const branch = args[0]?.value === true ? 1 : 2;
      if (args[branch]?.value !== undefined) collect(args[branch]!, `${at}/args/${branch}`, leaves);
      return;
    }
    default:
      leaves.push(at);
  }
}
