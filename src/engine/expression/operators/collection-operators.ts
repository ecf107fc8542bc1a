import { add } from "../../number/arithmetic.ts";
import type { NumberValue } from "../../number/decimal.ts";
import type { Value } from "../../value/value-kind.ts";
import { expectBoolean, expectListOrNull, expectNumber } from "../argument-checks.ts";
import type { Node, OperatorDefinition } from "../prepared-node.ts";
import type { Scope } from "../scope.ts";

/**
 * `list` and the collection operators (specification 4.3). The second argument is evaluated for
 * every element with `item` bound, never short-circuited, so which error a rule raises does not
 * depend on the order of the elements.
 */

function eachElement(
  name: string,
  listArg: Node,
  body: Node,
  scope: Scope,
  base: number,
): { list: readonly Value[]; results: Value[] } {
  const list = expectListOrNull(listArg(scope, base), name);
  const results = new Array<Value>(list.length);
  const outer = scope.item;
  try {
    for (let i = 0; i < list.length; i++) {
      scope.item = list[i]!;
      results[i] = body(scope, base);
    }
  } finally {
    scope.item = outer;
  }
  return { list, results };
}

function countTrue(name: string, results: readonly Value[]): number {
  let count = 0;
  for (const result of results) if (expectBoolean(result, name)) count++;
  return count;
}

function collection(name: string, finish: (list: readonly Value[], results: Value[]) => Value): OperatorDefinition {
  return {
    minArgs: 2,
    maxArgs: 2,
    build:
      ([listArg, body]) =>
      (scope, base) => {
        const { list, results } = eachElement(name, listArg!, body!, scope, base);
        return finish(list, results);
      },
  };
}

export const collectionOperators: Record<string, OperatorDefinition> = {
  list: {
    minArgs: 0,
    maxArgs: Infinity,
    build: (args) => (scope, base) => args.map((arg) => arg(scope, base)),
  },
  all: collection("all", (list, results) => countTrue("all", results) === list.length),
  some: collection("some", (_list, results) => countTrue("some", results) > 0),
  none: collection("none", (_list, results) => countTrue("none", results) === 0),
  sum: collection("sum", (_list, results) => {
    let total: NumberValue = 0;
    for (const result of results) total = add(total, expectNumber(result, "sum"));
    return total;
  }),
  map: collection("map", (_list, results) => results),
  filter: collection("filter", (list, results) => list.filter((_item, i) => expectBoolean(results[i]!, "filter"))),
};
