import { describe, expect, test } from "bun:test";
import { RE2 } from "re2-wasm";
import { checkPortablePattern } from "../../../src/engine/pattern/portable-pattern.ts";
import table from "../../cases/patterns/portable-patterns.json";

/**
 * The linear subset of portable patterns runs on the JavaScript engine instead of RE2. Two things
 * must hold: only patterns a backtracking engine matches in linear time are in it, and for those
 * the JavaScript reading answers exactly what RE2 answers.
 */
const linearSource = (pattern: string): string | undefined => {
  const check = checkPortablePattern(pattern);
  if (!check.ok) throw new Error(`not portable: ${pattern}`);
  return check.linearSource;
};

describe("the linear subset", () => {
  test.each([
    "^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$",
    "^[A-Z]{2}$",
    "^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$",
    "^[A-Za-z0-9\\/\\?:\\(\\)\\.,'\\+ \\-]*$",
    "^[A-Z0-9][A-Z0-9\\/\\-]{2,34}$",
    "^\\w+@",
    "^.{3}$",
    "^😀+$",
    "^(ab){2}c*",
  ])("holds %p", (pattern) => {
    expect(linearSource(pattern)).toBeString();
  });

  test.each([
    ["no leading ^", "[A-Z]{2}$"],
    ["alternation", "^(a|b)$"],
    ["alternation at the top", "^a|^b"],
    ["two counts that vary", "^a*b*$"],
    ["two counts that vary, one in a group", "^a+(bc)?$"],
    ["a count that varies inside a group", "^(a+b)$"],
    ["a group inside a group", "^((ab)c)$"],
    ["more fixed length than the bound", `^${"a".repeat(65)}$`],
    ["more fixed length than the bound through a count", "^x*a{65}$"],
  ])("leaves out a pattern with %s", (_reason, pattern) => {
    expect(linearSource(pattern)).toBeUndefined();
  });
});

/** Subjects made of the pattern's own characters and the ones where engines tend to differ. */
function subjectsFor(pattern: string, extra: readonly string[], seed: number): string[] {
  const alphabet = [...new Set([...pattern].filter((c) => !"^$[]{}()?*+\\".includes(c)))].concat(["a", "Z", "0", "9", "_", " ", "-", "/", "\n", "\r", "é", "😀", "\uD800", "\uDC00", "ß", "İ", "K"]);
  let state = seed;
  const next = (limit: number): number => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % limit;
  };
  const subjects = [...extra, ""];
  for (let i = 0; i < 120; i++) {
    const length = next(i < 60 ? 8 : 40);
    let subject = "";
    for (let j = 0; j < length; j++) subject += alphabet[next(alphabet.length)];
    subjects.push(subject);
  }
  return subjects;
}

/** What the matcher does to a subject before either engine sees it. */
const wellFormed = (subject: string): string => subject.replace(/\p{Cs}/gu, "\uFFFD");

function agreeWithRe2(pattern: string, extra: readonly string[], seed: number): number {
  const check = checkPortablePattern(pattern);
  if (!check.ok || check.linearSource === undefined) return 0;
  const javaScript = new RegExp(check.linearSource, "su");
  const re2 = new RE2(check.re2Source, "u");
  try {
    for (const subject of subjectsFor(pattern, extra, seed)) {
      const input = wellFormed(subject);
      expect(`${JSON.stringify(pattern)} on ${JSON.stringify(subject)}: ${javaScript.test(input)}`).toBe(`${JSON.stringify(pattern)} on ${JSON.stringify(subject)}: ${re2.test(input)}`);
    }
  } finally {
    (re2 as unknown as { wrapper?: { delete?: () => void } }).wrapper?.delete?.();
  }
  return 1;
}

describe("in the linear subset, JavaScript answers what RE2 answers", () => {
  const accepted = (table as { accepted: { pattern: string; matches: string[]; rejects: string[] }[] }).accepted;

  test("for every pattern of the table in the subset, on its subjects and 120 generated ones", () => {
    let compared = 0;
    accepted.forEach((entry, index) => {
      compared += agreeWithRe2(entry.pattern, [...entry.matches, ...entry.rejects], index + 1);
    });
    expect(compared).toBeGreaterThan(20);
  });

  test("for 400 generated patterns in the subset", () => {
    const atoms = ["a", "Z", "0", "é", "😀", ".", "\\d", "\\w", "\\D", "\\W", "[a-z]", "[^a-z]", "[A-Z0-9_]", "[é😀-😂]", "[\\d\\-]", "[^\\W]", "\\.", "\\-", "(ab)", "(\\d{2}x)"];
    const counts = ["", "", "{2}", "{1,3}", "?", "*", "+", "{0,2}", "{2,}"];
    let state = 7;
    const next = (limit: number): number => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state % limit;
    };
    let compared = 0;
    for (let i = 0; compared < 400 && i < 5000; i++) {
      let pattern = "^";
      const terms = 1 + next(5);
      for (let t = 0; t < terms; t++) pattern += atoms[next(atoms.length)]! + counts[next(counts.length)]!;
      if (next(2) === 0) pattern += "$";
      const check = checkPortablePattern(pattern);
      if (!check.ok) continue;
      compared += agreeWithRe2(pattern, [], i);
    }
    expect(compared).toBe(400);
  });
});
