import type { CustomOperator } from "./expression/custom-operators.ts";
import type { JsonValue } from "./value/json-value.ts";
import { reverseCodePoints } from "./value/code-points.ts";

/**
 * The three custom operators every conformance runner registers (specification section 11), as
 * a host would write them: plain functions of JSON values.
 */
export const conformanceOperators: Readonly<Record<string, CustomOperator>> = {
  /** One string, reversed by code point. */
  "x-test-reverse": (...args: JsonValue[]) => {
    const [text] = args;
    if (args.length !== 1 || typeof text !== "string") throw new TypeError("x-test-reverse expects one string");
    return reverseCodePoints(text);
  },
  /** Any number of numbers, summed as a host sums doubles. */
  "x-test-sum": (...args: JsonValue[]) => {
    let total = 0;
    for (const arg of args) {
      if (typeof arg !== "number") throw new TypeError("x-test-sum expects numbers");
      total += arg;
    }
    return total;
  },
  /** True for a string of two or more ASCII digits that passes the Luhn check; never fails on a value. */
  "x-luhn": (...args: JsonValue[]) => {
    if (args.length !== 1) throw new TypeError("x-luhn takes one argument");
    const [candidate] = args;
    if (typeof candidate !== "string" || !/^[0-9]{2,}$/.test(candidate)) return false;
    let total = 0;
    for (let i = 0; i < candidate.length; i++) {
      let digit = candidate.charCodeAt(candidate.length - 1 - i) - 48;
      if (i % 2 === 1) digit *= 2;
      total += digit > 9 ? digit - 9 : digit;
    }
    return total % 10 === 0;
  },
};
