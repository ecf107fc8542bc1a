import { expect, test } from "bun:test";
import { CORE_OPERATORS } from "../../../src/compiler/schema/names.ts";
import reference from "../../cases/schema/rule-cascade.schema.json";

/** The schema takes its operator names from the engine; they must be exactly the reference schema's. */
test("the engine's core operators are the operators of the reference schema", () => {
  const enumerated = (reference as any).$defs.Expr.anyOf[2].properties.op.anyOf[0].enum as string[];
  expect([...CORE_OPERATORS].sort()).toEqual([...enumerated].sort());
});
