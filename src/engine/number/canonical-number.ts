import type { NumberValue } from "./decimal.ts";

/**
 * Canonical number text (specification section 6): plain decimal notation, no exponent, no
 * trailing zeros, and `0` for zero (negative zero included).
 */
export function canonicalNumberText(value: NumberValue): string {
  if (typeof value === "number") {
    if (value === 0) return "0";
    const shortest = String(value);
    return shortest.includes("e") ? expandExponent(shortest) : shortest;
  }
  if (value.isZero()) return "0";
  return value.toFixed();
}

/** Rewrites JavaScript's `1.5e-7` / `1e+21` forms without the exponent. */
function expandExponent(text: string): string {
  const negative = text.startsWith("-");
  const unsigned = negative ? text.slice(1) : text;
  const [mantissa = "", exponentText = "0"] = unsigned.split("e");
  const exponent = Number(exponentText);
  const [whole = "", fraction = ""] = mantissa.split(".");
  const digits = whole + fraction;
  const point = whole.length + exponent;
  let plain: string;
  if (point <= 0) plain = `0.${"0".repeat(-point)}${digits}`;
  else if (point >= digits.length) plain = digits + "0".repeat(point - digits.length);
  else plain = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${plain}` : plain;
}
