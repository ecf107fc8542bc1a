import { expect, test } from "bun:test";
import { EqualityIndex } from "../../../src/engine/evaluation/equality-index.ts";
import type { IndexedLiteral } from "../../../src/engine/evaluation/leading-condition.ts";
import { Decimal } from "../../../src/engine/number/decimal.ts";
import { valuesEqual } from "../../../src/engine/value/value-equality.ts";
import type { Value } from "../../../src/engine/value/value-kind.ts";

/**
 * The index's lookup decides `eq` as the engine does (valuesEqual): a rule is marked as not
 * applying only where `eq` of the value and its literal is false, and left to evaluate wherever
 * it is true; only a value the lookup cannot decide (an exact decimal, NaN) leaves rules with a
 * number literal to evaluate, which then decide for themselves.
 */

const LITERALS: IndexedLiteral[] = ["1", 1, 0, -0, 1.5, 0.1, true, "true", false, "false", null, "null", "", "DE"];
const VALUES: Value[] = [
  ...LITERALS,
  2,
  0.30000000000000004,
  "de",
  {},
  [],
  [1],
  { "1": 1 },
  new Decimal("1"),
  new Decimal("1.5"),
  new Decimal("0.1000000000000000000001"),
  Number.NaN,
  Number.POSITIVE_INFINITY,
];

test("marks a rule exactly where eq of the value and its literal is false", () => {
  const index = new EqualityIndex("data.x", () => null);
  LITERALS.forEach((literal, position) => index.file(position, literal));
  for (const value of VALUES) {
    const marked = new Uint8Array(LITERALS.length);
    index.mark(marked, value);
    LITERALS.forEach((literal, position) => {
      const equal = valuesEqual(value, literal);
      const undecided = typeof literal === "number" && (value instanceof Decimal || Number.isNaN(value));
      const expected = equal || undecided ? 0 : 1;
      expect({ value: String(value), literal, marked: marked[position] }).toEqual({
        value: String(value),
        literal,
        marked: expected,
      });
    });
  }
});

test("marking again for another value clears the marks of the first", () => {
  const index = new EqualityIndex("data.x", () => null);
  index.file(3, "a");
  index.file(5, "b");
  const marked = new Uint8Array(8);
  index.mark(marked, "a");
  expect([...marked]).toEqual([0, 0, 0, 0, 0, 1, 0, 0]);
  index.mark(marked, "b");
  expect([...marked]).toEqual([0, 0, 0, 1, 0, 0, 0, 0]);
});
