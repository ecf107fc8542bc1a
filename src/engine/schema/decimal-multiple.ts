import type { NumberValue } from "../number/decimal.ts";

/**
 * Whether a number is an exact multiple of a positive one, in decimal (0.3 is a multiple of 0.1):
 * both are written as integer coefficient times a power of ten and the division is done on
 * integers, so any magnitude is exact and the work stays small.
 */
export function isMultipleOf(value: NumberValue, divisor: number): boolean {
  if (typeof value === "number" && Number.isSafeInteger(value) && Number.isSafeInteger(divisor))
    return value % divisor === 0;
  const a = scientific(value);
  const b = scientific(divisor);
  if (a === undefined || b === undefined || b.coefficient === 0n) return true;
  if (a.coefficient === 0n) return true;
  const shift = a.exponent - b.exponent;
  // value / divisor = (a / b) * 10^shift
  if (shift >= 0)
    return ((a.coefficient % b.coefficient) * powerOfTenModulo(shift, b.coefficient)) % b.coefficient === 0n;
  // A coefficient of fewer digits than the shift cannot hold b * 10^-shift.
  if (-shift > a.digits) return false;
  return a.coefficient % (b.coefficient * 10n ** BigInt(-shift)) === 0n;
}

/** |x| as coefficient * 10^exponent with no trailing zeros in the coefficient. */
function scientific(x: NumberValue): { coefficient: bigint; exponent: number; digits: number } | undefined {
  const text =
    typeof x === "number" ? (Number.isFinite(x) ? x.toExponential() : "") : x.isFinite() ? x.toExponential() : "";
  const match = /^-?([0-9])(?:\.([0-9]+))?e([+-][0-9]+)$/.exec(text);
  if (match === null) return undefined;
  const fraction = match[2] ?? "";
  const all = match[1]! + fraction;
  const digits = all.replace(/0+$/, "") || "0";
  return {
    coefficient: BigInt(digits),
    exponent: Number(match[3]) - fraction.length + (all.length - digits.length),
    digits: digits.length,
  };
}

function powerOfTenModulo(exponent: number, modulus: bigint): bigint {
  let result = 1n % modulus;
  let base = 10n % modulus;
  for (let e = exponent; e > 0; e = Math.floor(e / 2)) {
    if (e % 2 === 1) result = (result * base) % modulus;
    base = (base * base) % modulus;
  }
  return result;
}
