import { describe, expect, test } from "bun:test";
import { RE2 } from "re2-wasm";
import { JavaScriptPattern } from "../../../src/engine/pattern/javascript-pattern.ts";
import { checkPortablePattern } from "../../../src/engine/pattern/portable-pattern.ts";
import table from "../../cases/patterns/portable-patterns.json";

/**
 * Portable patterns run on two engines: the linear subset on JavaScript everywhere, the rest on
 * RE2 on the server and on JavaScript in the browser build. Two things must hold: only patterns a
 * backtracking engine matches in linear time are in the subset, and for every portable pattern the
 * JavaScript reading answers exactly what RE2 answers.
 */
const linearSource = (pattern: string): string | undefined => {
  const check = checkPortablePattern(pattern);
  if (!check.ok) throw new Error(`not portable: ${pattern}`);
  return check.linear ? check.javaScriptSource : undefined;
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
function subjectsFor(pattern: string, extra: readonly string[], seed: number, longest = 40): string[] {
  const alphabet = [...new Set([...pattern].filter((c) => !"^$[]{}()?*+\\".includes(c)))].concat([
    "a",
    "Z",
    "0",
    "9",
    "_",
    " ",
    "-",
    "/",
    "\n",
    "\r",
    "é",
    "😀",
    "\uD800",
    "\uDC00",
    "ß",
    "İ",
    "K",
  ]);
  let state = seed;
  const next = (limit: number): number => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % limit;
  };
  const subjects = [...extra, ""];
  for (let i = 0; i < 120; i++) {
    const length = next(i < 60 ? Math.min(8, longest) : longest);
    let subject = "";
    for (let j = 0; j < length; j++) subject += alphabet[next(alphabet.length)];
    subjects.push(subject);
  }
  return subjects;
}

/** What the matcher does to a subject before either engine sees it. */
const wellFormed = (subject: string): string => subject.replace(/\p{Cs}/gu, "\uFFFD");

/**
 * Compares both readings of a pattern on its own subjects and generated ones. Outside the linear
 * subset the generated subjects stay short, since backtracking may take exponential time there.
 */
function agreeWithRe2(
  pattern: string,
  extra: readonly string[],
  seed: number,
  which: "linear" | "any" = "linear",
): number {
  const check = checkPortablePattern(pattern);
  if (!check.ok || (which === "linear" && !check.linear)) return 0;
  const javaScript = new JavaScriptPattern(check.javaScriptSource);
  const re2 = new RE2(check.re2Source, "u");
  try {
    // Long table subjects on such patterns take a backtracking engine seconds (see the README).
    const own = check.linear ? extra : extra.filter((subject) => subject.length <= 64);
    for (const subject of subjectsFor(pattern, own, seed, check.linear ? 40 : 12)) {
      const input = wellFormed(subject);
      expect(`${JSON.stringify(pattern)} on ${JSON.stringify(subject)}: ${javaScript.test(subject)}`).toBe(
        `${JSON.stringify(pattern)} on ${JSON.stringify(subject)}: ${re2.test(input)}`,
      );
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
    const atoms = [
      "a",
      "Z",
      "0",
      "é",
      "😀",
      ".",
      "\\d",
      "\\w",
      "\\D",
      "\\W",
      "[a-z]",
      "[^a-z]",
      "[A-Z0-9_]",
      "[é😀-😂]",
      "[\\d\\-]",
      "[^\\W]",
      "\\.",
      "\\-",
      "(ab)",
      "(\\d{2}x)",
    ];
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

describe("outside the linear subset, JavaScript (the browser build's backend) answers what RE2 answers", () => {
  const accepted = (table as { accepted: { pattern: string; matches: string[]; rejects: string[] }[] }).accepted;

  test("for every pattern of the table, on its subjects and 120 generated ones", () => {
    let compared = 0;
    accepted.forEach((entry, index) => {
      compared += agreeWithRe2(entry.pattern, [...entry.matches, ...entry.rejects], index + 1, "any");
    });
    expect(compared).toBe(accepted.length);
  });

  test("for 400 generated patterns with alternation, lazy counts and nested groups", () => {
    const atoms = [
      "a",
      "b",
      "Z",
      "0",
      "é",
      "😀",
      ".",
      "\\d",
      "\\w",
      "\\W",
      "[a-z]",
      "[^a-z]",
      "[é😀-😂]",
      "(a|b)",
      "(ab|a)",
      "(a|\\d{2})",
      "((a|b)c)",
      "(x(y)?)",
      "(|a)",
    ];
    const counts = ["", "", "", "{2}", "{1,3}", "?", "*", "+", "*?", "+?", "??", "{0,2}?", "{2,}"];
    let state = 11;
    const next = (limit: number): number => {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      return state % limit;
    };
    let compared = 0;
    let general = 0;
    for (let i = 0; compared < 400 && i < 5000; i++) {
      let pattern = next(3) === 0 ? "^" : "";
      const branches = 1 + (next(4) === 0 ? 1 : 0);
      for (let b = 0; b < branches; b++) {
        if (b > 0) pattern += "|";
        const terms = 1 + next(4);
        for (let t = 0; t < terms; t++) pattern += atoms[next(atoms.length)]! + counts[next(counts.length)]!;
      }
      if (next(3) === 0) pattern += "$";
      const check = checkPortablePattern(pattern);
      if (!check.ok) continue;
      if (!check.linear) general++;
      compared += agreeWithRe2(pattern, [], i, "any");
    }
    expect(compared).toBe(400);
    expect(general).toBeGreaterThan(300);
  });
});
