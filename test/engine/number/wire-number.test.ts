import { describe, expect, test } from "bun:test";
import { Decimal } from "../../../src/engine/number/decimal.ts";
import { toWireNumber } from "../../../src/engine/number/wire-number.ts";

/** Specification 4.2 rule 3 written out the slow way: the shortest decimal, rounded half even to 15 digits, read back. */
function byDefinition(value: number): number {
  const rounded = Number(new Decimal(value).toSignificantDigits(15, Decimal.ROUND_HALF_EVEN).toExponential());
  return rounded === 0 ? 0 : rounded;
}

/** A deterministic stream of doubles of every kind: random bit patterns, short decimals, sums that gain digits. */
function* doubles(count: number): Generator<number> {
  let seed = 0x2545f491;
  const next = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  const bits = new DataView(new ArrayBuffer(8));
  for (let index = 0; index < count; index++) {
    bits.setUint32(0, next());
    bits.setUint32(4, next());
    const random = bits.getFloat64(0);
    if (Number.isFinite(random) && Math.abs(random) < 1e300) yield random;
    yield (next() % 100000) / 10 ** (next() % 12);
    yield (next() % 1000) * 0.1 + (next() % 1000) * 0.01;
    yield -(next() / 3) * 10 ** ((next() % 40) - 20);
  }
}

describe("numbers leaving an expression", () => {
  test("agree with rounding the shortest decimal to 15 digits, for every kind of double", () => {
    let checked = 0;
    for (const value of doubles(20000)) {
      expect(Object.is(toWireNumber(value), byDefinition(value))).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(70000);
  });

  test.each([
    [0.1 + 0.2, 0.3],
    [1 / 3, 0.333333333333333],
    [-0, 0],
    [5e-324, 5e-324],
    [123456789012345680000, 123456789012346000000],
    [1e21, 1e21],
    [-1.5e-7, -1.5e-7],
    [999999999999999.9, 1e15],
    // biome-ignore lint/correctness/noPrecisionLoss: a literal past 2^53 is what is being tested
    [9999999999999999, 1e16],
  ])("%p leaves as %p", (value, expected) => {
    expect(Object.is(toWireNumber(value), expected)).toBe(true);
  });

  test("a double that rounds past the largest double is an evaluation error", () => {
    expect(() => toWireNumber(1.7976931348623157e308)).toThrow("too large");
  });
});
