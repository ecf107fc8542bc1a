import { expect, test } from "bun:test";
import { type TSchema, Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { compileChecker } from "../../../src/compiler/schema/compile-checker.ts";
import { Rule } from "../../../src/compiler/schema/rule.ts";

/** Our compiled checker against TypeBox's own: the same answers, with strings compared as themselves for uniqueItems. */
const unique = Type.Array(Type.Unknown(), { uniqueItems: true });
const code = (schema: TSchema) => TypeCompiler.Code(schema, [], { language: "javascript" });

test("uniqueItems refuses a repeated string, number, object or array, and accepts values that only look alike", () => {
  const ours = compileChecker(() => unique, code(unique));
  const typebox = TypeCompiler.Compile(unique);
  const lists: unknown[][] = [
    ["create", "update", "create"],
    ["create", "update"],
    [1, 2, 1],
    [1, "1"],
    ["", ""],
    [{ a: 1 }, { a: 1 }],
    [{ a: 1 }, { a: "1" }],
    [[1], [1]],
    [null, "null"],
    [true, "true"],
    [],
  ];
  for (const list of lists) expect([list, ours.Check(list)]).toEqual([list, typebox.Check(list)]);
  expect(ours.Check(["create", "update", "create"])).toBe(false);
  expect(ours.Check([1, "1"])).toBe(true);
});

test("a rule's operations and triggers are checked as TypeBox checks them, errors included", () => {
  const ours = compileChecker(() => Rule, code(Rule));
  const typebox = TypeCompiler.Compile(Rule);
  const base = { id: "r", kind: "validation", entity: "Order", assert: true, finding: { code: "C", message: "m" } };
  for (const extra of [
    { operations: ["create", "create"] },
    { operations: ["create", "update"] },
    { operations: ["create"], triggers: ["blur", "blur"] },
    { operations: ["create"], triggers: ["blur", "submit"] },
  ]) {
    const rule = { ...base, ...extra };
    expect(ours.Check(rule)).toBe(typebox.Check(rule));
    expect([...ours.Errors(rule)].map((error) => error.message)).toEqual(
      [...typebox.Errors(rule)].map((error) => error.message),
    );
  }
});

test("a schema with a custom format is refused rather than checked wrongly", () => {
  expect(() => compileChecker(() => Type.String(), code(Type.String({ format: "x-custom" })))).toThrow(
    "custom kind or format",
  );
});
