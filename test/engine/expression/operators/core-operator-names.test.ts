import { expect, test } from "bun:test";
import { CORE_OPERATOR_NAMES } from "../../../../src/engine/expression/operators/core-operator-names.ts";
import { coreOperators } from "../../../../src/engine/expression/operators/core-operators.ts";

test("the core operators' names are exactly the operators the engine implements, in its order", () => {
  expect([...CORE_OPERATOR_NAMES]).toEqual([...coreOperators.keys()]);
});
