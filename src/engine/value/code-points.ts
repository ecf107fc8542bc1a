/**
 * Strings are sequences of code points (specification 4.1 rule 5); JavaScript strings are UTF-16.
 * These helpers take the fast path when a string holds no surrogate.
 */
const SURROGATE = /[\uD800-\uDFFF]/;

export function codePointLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** `length` code points from `start`, cut at the end of the string. */
export function codePointSlice(text: string, start: number, length: number): string {
  if (!SURROGATE.test(text)) return text.slice(start, start + length);
  return Array.from(text)
    .slice(start, start + length)
    .join("");
}

export function reverseCodePoints(text: string): string {
  return Array.from(text).reverse().join("");
}
