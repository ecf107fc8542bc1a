import { expect, test } from "bun:test";
import { isShownAsIs, readableValue } from "../../../src/engine/explanation/readable-value.ts";
import { Decimal } from "../../../src/engine/number/decimal.ts";
import type { Value } from "../../../src/engine/value/value-kind.ts";

/**
 * The values a full explanation shows: copies (the working data changes after a node is shown),
 * cut where people could not read them, numbers as they leave the engine.
 */
const shown = (value: Value): { value: unknown; truncated: boolean } => {
  const cut = { truncated: false };
  return { value: readableValue(value, cut), truncated: cut.truncated };
};

test("null, booleans, short strings and whole numbers below 10^15 are shown as they are", () => {
  for (const value of [null, true, false, "", "EUR", "x".repeat(200), 0, 30060, -5, 999_999_999_999_999])
    expect(isShownAsIs(value)).toBe(true);
  for (const value of ["x".repeat(201), 0.5, -0, 1e15, -1e15, Number.NaN, [], {}, new Decimal("1.5")])
    expect(isShownAsIs(value as Value)).toBe(false);
});

test("lists and objects are copied, members in order, so later changes to the data do not show", () => {
  const data = { amount: 30000, debtor: { iban: "DE89", country: "DE" }, tags: ["a", { b: 1 }] };
  const { value, truncated } = shown(data);
  expect(truncated).toBe(false);
  expect(value).toEqual(data);
  expect(Object.keys(value as object)).toEqual(["amount", "debtor", "tags"]);
  data.debtor.country = "AT";
  (data.tags[1] as { b: number }).b = 2;
  data.tags.push("c");
  expect(value).toEqual({ amount: 30000, debtor: { iban: "DE89", country: "DE" }, tags: ["a", { b: 1 }] });
});

test("a member named __proto__ stays a member of the copy", () => {
  const data = JSON.parse('{"__proto__": {"x": 1}, "plain": {"__proto__": 2}}');
  const { value } = shown(data);
  expect(JSON.stringify(value)).toBe('{"__proto__":{"x":1},"plain":{"__proto__":2}}');
  expect(Object.hasOwn(value as object, "__proto__")).toBe(true);
  // Set as the prototype instead, its members would be read through the copy.
  expect((value as Record<string, unknown>).x).toBeUndefined();
});

test("numbers inside are shown as they leave the engine: -0 as 0, decimals as doubles of 15 digits", () => {
  const { value } = shown([-0, new Decimal("0.1").plus(new Decimal("0.2")), 1 / 3, { n: -0 }] as Value);
  expect(Object.is((value as number[])[0], 0)).toBe(true);
  expect(value).toEqual([0, 0.3, 0.333333333333333, { n: 0 }]);
});

test("long strings, lists and objects past 50 members and nesting past 8 are cut, and say so", () => {
  expect(shown("x".repeat(250))).toEqual({ value: "x".repeat(200), truncated: true });
  const long = shown(Array.from({ length: 60 }, (_, index) => index));
  expect(long.truncated).toBe(true);
  expect(long.value).toEqual(Array.from({ length: 50 }, (_, index) => index));
  const wide = shown(Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`k${index}`, index])));
  expect(wide.truncated).toBe(true);
  expect(Object.keys(wide.value as object)).toHaveLength(50);
  let deep: Value = { leaf: 1 };
  for (let level = 0; level < 9; level++) deep = { inner: deep };
  const nested = shown(deep);
  expect(nested.truncated).toBe(true);
  expect(JSON.stringify(nested.value)).toBe(`${'{"inner":'.repeat(8)}{}${"}".repeat(8)}`);
  expect(shown({ list: ["a", 1], fits: true })).toEqual({ value: { list: ["a", 1], fits: true }, truncated: false });
});

test("a number too large to leave the engine fails, even in a part that is cut", () => {
  const huge = new Decimal("1e400");
  expect(() => shown([1, huge] as Value)).toThrow("too large");
  expect(() => shown([...Array.from({ length: 50 }, () => 0), huge] as Value)).toThrow("too large");
  expect(() => shown({ a: { b: huge } } as Value)).toThrow("too large");
});
