/**
 * How many significant digits a number is written with (specification 4.2 rule 4: at most 15,
 * the most a double carries unchanged).
 *
 * Counted on the source text, not on the double: the digits of the mantissa (before any exponent),
 * without sign and decimal point, ignoring leading zeros and trailing zeros (in integers and
 * fractions alike, since `0.1000000000000000000` and `1000000000000000000000` both denote a value
 * that one or two digits identify exactly). `0` has none. Hexadecimal and octal integers (`0x…`,
 * `0o…`) are counted on their decimal value.
 */
export function significantDigits(numberText: string): number {
  const unsigned = numberText.replace(/^[-+]/, "");
  let digits: string;
  if (/^0[xo]/i.test(unsigned)) digits = BigInt(unsigned.toLowerCase()).toString();
  else digits = (unsigned.split(/[eE]/)[0] ?? "").replace(".", "");
  return digits.replace(/^0+/, "").replace(/0+$/, "").length;
}

export const MAX_PORTABLE_DIGITS = 15;

export function numberNotPortableMessage(numberText: string, digits: number): string {
  return `the number ${numberText} is written with ${digits} significant digits; at most ${MAX_PORTABLE_DIGITS} survive every JSON parser unchanged (write it with fewer digits, or as a string if it is an identifier)`;
}
