import { fail } from "../errors.ts";
import { Decimal, type NumberValue } from "./decimal.ts";

/**
 * Numbers leaving an expression (specification 4.2 rule 3): rounded half even to 15 significant
 * digits, then read as the nearest double. A magnitude above the largest double after rounding is
 * an evaluation error; one below the smallest double becomes zero, as a JSON parser would read it.
 */
export function toWireNumber(value: NumberValue): number {
  if (typeof value === "number") {
    // Fast paths: whole numbers below 10^15, and doubles whose shortest decimal (which is what a
    // double means here) has at most 15 significant digits: rounding leaves those unchanged.
    if (Number.isInteger(value) && Math.abs(value) < 1e15) return value === 0 ? 0 : value;
    if (significantDigits(String(value)) <= 15) return value === 0 ? 0 : value;
    return fromDecimal(new Decimal(value));
  }
  return fromDecimal(value);
}

/**
 * The significant digits of a number's text as JavaScript writes it (`-0.00123`, `1.5e-7`,
 * `12345678901234567000`): from the first non-zero digit to the last, before any exponent. Counting
 * them is cheaper than formatting the number again to 15 digits and reading that back.
 */
function significantDigits(text: string): number {
  let first = -1;
  let last = -1;
  let digits = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 101 /* e */) break;
    if (code < 48 || code > 57) continue;
    if (code !== 48) {
      if (first === -1) first = digits;
      last = digits;
    }
    digits++;
  }
  return first === -1 ? 0 : last - first + 1;
}

const LARGEST_DOUBLE = new Decimal("1.7976931348623157e308");

function fromDecimal(value: Decimal): number {
  const rounded = value.toSignificantDigits(15, Decimal.ROUND_HALF_EVEN);
  if (rounded.abs().gt(LARGEST_DOUBLE)) fail("a number is too large to leave the expression");
  const double = Number(rounded.toExponential());
  return double === 0 ? 0 : double;
}
