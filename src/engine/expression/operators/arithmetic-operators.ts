import { fail } from "../../errors.ts";
import type { NumberValue } from "../../number/decimal.ts";
import {
  absolute,
  add,
  compare,
  divide,
  multiply,
  remainder,
  roundToPlaces,
  subtract,
} from "../../number/arithmetic.ts";
import { expectIndex, expectNumber } from "../argument-checks.ts";
import type { OperatorDefinition } from "../prepared-node.ts";

/** Decimal arithmetic operators (specification 4.2 and 4.3). */

function binary(name: string, compute: (a: NumberValue, b: NumberValue) => NumberValue): OperatorDefinition {
  return {
    minArgs: 2,
    maxArgs: 2,
    build:
      ([left, right]) =>
      (scope, base) => {
        const a = expectNumber(left!(scope, base), name);
        return compute(a, expectNumber(right!(scope, base), name));
      },
  };
}

function extreme(name: string, keepsCandidate: (order: number) => boolean): OperatorDefinition {
  return {
    minArgs: 1,
    maxArgs: Infinity,
    build: (args) => (scope, base) => {
      const values = args.map((arg) => expectNumber(arg(scope, base), name));
      let best = values[0]!;
      for (let i = 1; i < values.length; i++) if (keepsCandidate(compare(values[i]!, best))) best = values[i]!;
      return best;
    },
  };
}

const MAX_ROUND_PLACES = 15;

export const arithmeticOperators: Record<string, OperatorDefinition> = {
  add: binary("add", add),
  sub: binary("sub", subtract),
  mul: binary("mul", multiply),
  div: binary("div", divide),
  mod: binary("mod", remainder),
  abs: {
    minArgs: 1,
    maxArgs: 1,
    build:
      ([a]) =>
      (scope, base) =>
        absolute(expectNumber(a!(scope, base), "abs")),
  },
  min: extreme("min", (order) => order < 0),
  max: extreme("max", (order) => order > 0),
  round: {
    minArgs: 1,
    maxArgs: 2,
    build:
      ([value, placesArg]) =>
      (scope, base) => {
        const x = expectNumber(value!(scope, base), "round");
        const places = placesArg ? expectIndex(placesArg(scope, base), "round", "places") : 0;
        if (places > MAX_ROUND_PLACES) fail(`round supports at most ${MAX_ROUND_PLACES} decimal places`);
        return roundToPlaces(x, places);
      },
  },
};
