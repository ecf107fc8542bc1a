import { fail } from "../errors.ts";
import { Decimal, type NumberValue } from "./decimal.ts";

/**
 * Numbers leaving an expression (specification 4.2 rule 3): rounded half even to 15 significant
 * digits, then read as the nearest double. A magnitude above the largest double after rounding is
 * an evaluation error; one below the smallest double becomes zero, as a JSON parser would read it.
 */
export function toWireNumber(value: NumberValue): number {
  if (typeof value === "number") {
    // Fast paths: whole numbers below 10^15 and doubles whose shortest decimal already has at
    // most 15 digits leave unchanged. `toPrecision` rounds the binary value, which is only safe
    // when the result reads back as the same double.
    if (Number.isInteger(value) && Math.abs(value) < 1e15) return value === 0 ? 0 : value;
    const fifteen = value.toPrecision(15);
    if (Number(fifteen) === value) return value === 0 ? 0 : value;
    return fromDecimal(new Decimal(value));
  }
  return fromDecimal(value);
}

const LARGEST_DOUBLE = new Decimal("1.7976931348623157e308");

function fromDecimal(value: Decimal): number {
  const rounded = value.toSignificantDigits(15, Decimal.ROUND_HALF_EVEN);
  if (rounded.abs().gt(LARGEST_DOUBLE)) fail("a number is too large to leave the expression");
  const double = Number(rounded.toExponential());
  return double === 0 ? 0 : double;
}
