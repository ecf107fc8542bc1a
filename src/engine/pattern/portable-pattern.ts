/**
 * Portable patterns (specification 4.4): the only regular-expression syntax that `matches`
 * accepts, checked here and translated to RE2 syntax with the one meaning the specification gives.
 *
 * Pure TypeScript with no runtime APIs, so that a browser build can use it too. The pattern is read
 * by code points into a small syntax tree (pattern-reader.ts), the limits of 4.4 checked as it is.
 */

import { isLinearSubset } from "./linear-subset.ts";
import { javaScriptSource, re2Source } from "./pattern-emitter.ts";
import { NotPortable, PatternReader } from "./pattern-reader.ts";

/**
 * A portable pattern in the syntax of each engine: `re2Source` for RE2, `javaScriptSource` for
 * JavaScript with flags "su" (the same matches: portable syntax has no construct whose meaning the
 * two engines differ on). `linear` says whether a backtracking engine provably matches it in time
 * linear in the subject (see isLinearSubset); the matcher runs those on JavaScript even where RE2
 * is at hand, without the cost of a call into WebAssembly.
 */
export type PatternCheck =
  | { readonly ok: true; readonly re2Source: string; readonly javaScriptSource: string; readonly linear: boolean }
  | { readonly ok: false; readonly reason: string };

/** A pattern has at most this many code points. */
const MAX_PATTERN_CODE_POINTS = 1000;
const REPLACEMENT_CHARACTER = 0xfffd;

/**
 * The checks made so far, by pattern: rulesets share their patterns (an IBAN's, a postal code's),
 * and at a thousand rulesets reading the same few again was a twentieth of loading them. Emptied
 * when full, so that it stays small whatever patterns come.
 */
const checked = new Map<string, PatternCheck>();
const MAX_CHECKED = 4096;

/** Checks a pattern against the portable subset and, when it belongs, translates it for RE2. */
export function checkPortablePattern(pattern: string): PatternCheck {
  let check = checked.get(pattern);
  if (check === undefined) {
    if (checked.size >= MAX_CHECKED) checked.clear();
    check = checkNow(pattern);
    checked.set(pattern, check);
  }
  return check;
}

function checkNow(pattern: string): PatternCheck {
  // Each code point takes at most two UTF-16 units: a longer string cannot be within the limit,
  // and is refused before it is copied.
  if (pattern.length > 2 * MAX_PATTERN_CODE_POINTS) return tooLong();
  const codePoints = toCodePoints(pattern);
  if (codePoints.length > MAX_PATTERN_CODE_POINTS) return tooLong();
  try {
    const alternatives = new PatternReader(codePoints).readPattern();
    return {
      ok: true,
      re2Source: re2Source(alternatives),
      javaScriptSource: javaScriptSource(alternatives),
      linear: isLinearSubset(alternatives),
    };
  } catch (error) {
    if (error instanceof NotPortable) return { ok: false, reason: error.message };
    throw error;
  }
}

function tooLong(): PatternCheck {
  return { ok: false, reason: `the pattern has more than ${MAX_PATTERN_CODE_POINTS} code points` };
}

/**
 * The code points of a string. A lone surrogate is not a character: it becomes U+FFFD, as a JSON
 * decoder does in runtimes whose strings are UTF-8, and as the matcher does to subjects.
 */
function toCodePoints(text: string): number[] {
  const codePoints: number[] = [];
  for (const character of text) {
    const codePoint = character.codePointAt(0) ?? REPLACEMENT_CHARACTER;
    codePoints.push(codePoint >= 0xd800 && codePoint <= 0xdfff ? REPLACEMENT_CHARACTER : codePoint);
  }
  return codePoints;
}
