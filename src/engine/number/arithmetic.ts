import { fail } from "../errors.ts";
import { Decimal, type NumberValue } from "./decimal.ts";

/**
 * Decimal arithmetic of expressions (specification 4.2). Most numbers in business rules are whole
 * or have a few decimal places; for those the exact result is computed with doubles holding
 * scaled integers, and only the rest takes the general 34-digit decimal path.
 */

const POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
/**
 * Below 2^52 a double's spacing is finer than one unit of the last decimal place of a scaled
 * integer, so a scaled integer in this range is the shortest decimal of the double that holds it.
 */
const SCALED_LIMIT = 2 ** 52;

/**
 * The number of decimal places of a double's shortest decimal when that decimal is a scaled
 * integer below SCALED_LIMIT with at most 15 places; otherwise -1.
 */
export function decimalPlaces(x: number): number {
  if (Number.isInteger(x)) return Math.abs(x) < SCALED_LIMIT ? 0 : -1;
  for (let places = 1; places < POWERS_OF_TEN.length; places++) {
    const scale = POWERS_OF_TEN[places]!;
    const scaled = Math.round(x * scale);
    if (scaled / scale === x) return Math.abs(scaled) < SCALED_LIMIT ? places : -1;
  }
  return -1;
}

function toDecimal(x: NumberValue): Decimal {
  return typeof x === "number" ? new Decimal(x) : x;
}

/** A decimal result as a double when the double means exactly that decimal. */
function settle(result: Decimal): NumberValue {
  if (!result.isFinite()) fail("a number overflowed");
  if (result.isZero()) return 0;
  if (result.sd() <= 15 && result.e > -300 && result.e < 300) return Number(result.toExponential());
  return result;
}

/** Adds two scaled integers when both and the result stay in the exact range. */
function scaledSum(a: number, b: number): number | undefined {
  const pa = decimalPlaces(a);
  if (pa < 0) return undefined;
  const pb = decimalPlaces(b);
  if (pb < 0) return undefined;
  const places = Math.max(pa, pb);
  const scale = POWERS_OF_TEN[places]!;
  const sum = Math.round(a * scale) + Math.round(b * scale);
  if (Math.abs(sum) >= SCALED_LIMIT) return undefined;
  return sum / scale;
}

export function add(a: NumberValue, b: NumberValue): NumberValue {
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isInteger(a) && Number.isInteger(b)) {
      const sum = a + b;
      if (Number.isSafeInteger(sum) && Number.isSafeInteger(a) && Number.isSafeInteger(b)) return sum;
    } else {
      const sum = scaledSum(a, b);
      if (sum !== undefined) return sum;
    }
  }
  return settle(toDecimal(a).plus(toDecimal(b)));
}

export function subtract(a: NumberValue, b: NumberValue): NumberValue {
  return add(a, negate(b));
}

export function multiply(a: NumberValue, b: NumberValue): NumberValue {
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isInteger(a) && Number.isInteger(b)) {
      const product = a * b;
      if (Number.isSafeInteger(product) && Number.isSafeInteger(a) && Number.isSafeInteger(b))
        return product === 0 ? 0 : product;
    } else {
      const pa = decimalPlaces(a);
      const pb = pa < 0 ? -1 : decimalPlaces(b);
      if (pb >= 0 && pa + pb < POWERS_OF_TEN.length) {
        const product = Math.round(a * POWERS_OF_TEN[pa]!) * Math.round(b * POWERS_OF_TEN[pb]!);
        if (Math.abs(product) < SCALED_LIMIT) return product === 0 ? 0 : product / POWERS_OF_TEN[pa + pb]!;
      }
    }
  }
  return settle(toDecimal(a).times(toDecimal(b)));
}

export function divide(a: NumberValue, b: NumberValue): NumberValue {
  if (isZero(b)) fail("division by zero");
  if (
    typeof a === "number" &&
    typeof b === "number" &&
    Number.isSafeInteger(a) &&
    Number.isSafeInteger(b) &&
    a % b === 0
  ) {
    const quotient = a / b;
    return quotient === 0 ? 0 : quotient;
  }
  return settle(toDecimal(a).dividedBy(toDecimal(b)));
}

/** Remainder of truncated division; the sign follows the dividend. */
export function remainder(a: NumberValue, b: NumberValue): NumberValue {
  if (isZero(b)) fail("division by zero");
  if (typeof a === "number" && typeof b === "number" && Number.isSafeInteger(a) && Number.isSafeInteger(b)) {
    const rest = a % b;
    return rest === 0 ? 0 : rest;
  }
  const x = toDecimal(a);
  const y = toDecimal(b);
  if (x.isZero()) return 0;
  // A quotient with more whole digits than the working precision cannot be computed exactly.
  const gap = x.e - y.e;
  if (gap > 34 || (gap === 34 && x.abs().gte(y.abs().times(new Decimal(10).pow(gap))))) fail("mod overflowed");
  return settle(x.mod(y));
}

export function negate(a: NumberValue): NumberValue {
  return typeof a === "number" ? (a === 0 ? 0 : -a) : a.negated();
}

export function absolute(a: NumberValue): NumberValue {
  return typeof a === "number" ? Math.abs(a) : a.abs();
}

export function isZero(a: NumberValue): boolean {
  return typeof a === "number" ? a === 0 : a.isZero();
}

/** -1, 0 or 1, exactly. Two doubles order like their shortest decimals. */
export function compare(a: NumberValue, b: NumberValue): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  return toDecimal(a).comparedTo(toDecimal(b));
}

/** Rounds half even to a number of decimal places (0 to 15). */
export function roundToPlaces(a: NumberValue, places: number): NumberValue {
  if (typeof a === "number" && Number.isInteger(a)) return a === 0 ? 0 : a;
  const x = toDecimal(a);
  if (x.isZero()) return 0;
  // The result must fit the working precision, as every other operation's does.
  if (x.e + places + 1 > 34) fail("round overflowed");
  return settle(x.toDecimalPlaces(places, Decimal.ROUND_HALF_EVEN));
}

/** Whether a number is whole, for arguments that must be indexes or counts. */
export function isWhole(a: NumberValue): boolean {
  return typeof a === "number" ? Number.isInteger(a) : a.isInteger();
}

/** A whole non-negative number as an index; huge values saturate, which every caller clamps. */
export function toIndex(a: NumberValue): number {
  const n = typeof a === "number" ? a : a.toNumber();
  return Math.min(n, Number.MAX_SAFE_INTEGER);
}
