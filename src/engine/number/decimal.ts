import DecimalJs from "decimal.js";

/**
 * The decimal type of expression arithmetic (specification 4.2): 34 significant digits, round half
 * even. The exponent range is wide (±999999, as the reference implementation has it) so that an
 * intermediate result far outside the double range can still come back into it before it leaves
 * the expression; only a number that leaves must fit a double.
 */
export const Decimal = DecimalJs.clone({
  precision: 34,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  // Truncated division for `mod`: the remainder takes the sign of the dividend.
  modulo: DecimalJs.ROUND_DOWN,
  maxE: 999999,
  minE: -999999 - 33,
  toExpNeg: -9e15,
  toExpPos: 9e15,
});
export type Decimal = DecimalJs;

/** A number inside an expression: a double (meaning its shortest decimal) or an exact decimal. */
export type NumberValue = number | Decimal;

export function isDecimal(value: unknown): value is Decimal {
  return value instanceof Decimal;
}
