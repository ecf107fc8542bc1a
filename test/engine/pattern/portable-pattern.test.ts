import { describe, expect, test } from "bun:test";
import { EvaluationError } from "../../../src/engine/errors.ts";
import { compilePattern } from "../../../src/engine/pattern/pattern-matcher.ts";
import { checkPortablePattern } from "../../../src/engine/pattern/portable-pattern.ts";
import table from "../../cases/patterns/portable-patterns.json";

interface AcceptedCase {
  pattern: string;
  matches: string[];
  rejects: string[];
}
interface RefusedCase {
  pattern: string;
  because: string;
}
const { accepted, refused } = table as { accepted: AcceptedCase[]; refused: RefusedCase[] };

/** Names a case by its pattern, shortened so that long patterns keep the report readable. */
function label(pattern: string): string {
  const shown = JSON.stringify(pattern);
  if (shown.length <= 60) return shown;
  return `${shown.slice(0, 50)}... (${[...pattern].length} code points)`;
}

/** The pattern read by ECMAScript, which gives portable syntax its meaning with flags s and u. */
function ecmaScriptReading(pattern: string): RegExp {
  return new RegExp(pattern, "su");
}

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe("portable patterns from the table", () => {
  test("the table has at least 120 cases", () => {
    expect(accepted.length + refused.length).toBeGreaterThanOrEqual(120);
  });

  for (const { pattern, matches, rejects } of accepted) {
    test(`accepts ${label(pattern)}`, () => {
      const check = checkPortablePattern(pattern);
      expect(check).toMatchObject({ ok: true });
      const compiled = compilePattern(pattern);
      // The subject is in the compared value so that a failure names it.
      for (const subject of matches) {
        expect({ subject, matched: compiled.test(subject) }).toEqual({ subject, matched: true });
      }
      for (const subject of rejects) {
        expect({ subject, matched: compiled.test(subject) }).toEqual({ subject, matched: false });
      }
    });
  }

  for (const { pattern, because } of refused) {
    test(`refuses ${label(pattern)} (${because})`, () => {
      const check = checkPortablePattern(pattern);
      expect(check.ok).toBe(false);
      if (!check.ok) expect(check.reason.length).toBeGreaterThan(0);
      const error = thrownBy(() => compilePattern(pattern));
      expect(error).toBeInstanceOf(EvaluationError);
    });
  }

  // A second engine as a check on the table itself: the expectations must be what the
  // specification's meaning gives, not whatever RE2 happens to do. A backtracking engine needs
  // seconds for these two, as section 4.4 warns, so they are left to RE2.
  const slowForBacktracking = new Set(["^((a{10})?){100}$", "^(a{1,2}){1,500}$"]);
  test("ECMAScript with flags s and u agrees with the accepted cases", () => {
    for (const { pattern, matches, rejects } of accepted) {
      if (slowForBacktracking.has(pattern)) continue;
      const regex = ecmaScriptReading(pattern);
      const outcome = (subject: string) => ({ pattern, subject, matched: regex.test(subject) });
      for (const subject of matches) expect(outcome(subject)).toMatchObject({ matched: true });
      for (const subject of rejects) expect(outcome(subject)).toMatchObject({ matched: false });
    }
  });
});

describe("reasons", () => {
  const reasonFor = (pattern: string): string => {
    const check = checkPortablePattern(pattern);
    if (check.ok) throw new Error(`${pattern} was accepted`);
    return check.reason;
  };

  test("name the problem and its position in code points", () => {
    expect(reasonFor("abc\\s")).toBe("\\s is not a portable escape at position 3");
    expect(reasonFor("😀😀\\b")).toBe("\\b is not a portable escape at position 2");
    expect(reasonFor("(a{30}){40}")).toContain("1200");
    expect(reasonFor("(a+)+")).toContain("unbounded");
    expect(reasonFor("a*+")).toContain("possessive");
    expect(reasonFor("[[:alpha:]]")).toContain("[");
    expect(reasonFor("a".repeat(1001))).toContain("1000 code points");
  });
});

describe("translation to RE2", () => {
  const sourceOf = (pattern: string): string => {
    const check = checkPortablePattern(pattern);
    if (!check.ok) throw new Error(check.reason);
    return check.re2Source;
  };

  test("makes . match line breaks and keeps ^ and $ at the ends of the string", () => {
    expect(sourceOf("^a.b$")).toBe("(?s)^a.b$");
  });

  test("writes \\/ as a plain slash and counts as plain decimals", () => {
    expect(sourceOf("a\\/b{02}")).toBe("(?s)a/b{2}");
    expect(compilePattern("^a\\/b{02}$").test("a/bb")).toBe(true);
  });

  test("an empty pattern matches every subject", () => {
    expect(sourceOf("")).toBe("(?s)");
  });

  test("a lone surrogate reads as U+FFFD in the pattern and in the subject", () => {
    expect(compilePattern("^\uD800$").test("\uDC00")).toBe(true);
    expect(compilePattern("^.a$").test("\uD800a")).toBe(true);
    expect(compilePattern("^[😀-😂]$").test("\uD83D")).toBe(false);
  });
});

describe("the subject limit", () => {
  const anything = () => compilePattern(".");

  test("10000 code points are allowed, astral characters counting as one", () => {
    expect(anything().test("😀".repeat(10000))).toBe(true);
    expect(anything().test("a".repeat(10000))).toBe(true);
  });

  test("10001 code points are an evaluation error, whatever the pattern", () => {
    const tooLong = ["a".repeat(10001), "😀".repeat(10001), `${"😀".repeat(9999)}ab`, "😀".repeat(20000)];
    for (const subject of tooLong) {
      const error = thrownBy(() => anything().test(subject));
      expect(error).toBeInstanceOf(EvaluationError);
      expect((error as EvaluationError).code).toBe("EVALUATION_ERROR");
    }
  });
});

describe("compilation", () => {
  test("the same pattern compiles once and is then taken from the cache", () => {
    const first = compilePattern("^cached[0-9]+$");
    expect(compilePattern("^cached[0-9]+$")).toBe(first);
  });

  test("a refused pattern is refused every time, with the same message", () => {
    const first = thrownBy(() => compilePattern("(a+)+")) as EvaluationError;
    const second = thrownBy(() => compilePattern("(a+)+")) as EvaluationError;
    expect(first).toBeInstanceOf(EvaluationError);
    expect(first.code).toBe("EVALUATION_ERROR");
    expect(second.message).toBe(first.message);
  });

  // re2-wasm's heap is fixed and never collected: compiling thousands of distinct patterns must
  // free old expressions, or the engine aborts for good (it did after about 3400).
  test("many distinct patterns do not exhaust the engine, and old ones still work", () => {
    const first = compilePattern("^first-of-many$");
    const subject = "ab1_".repeat(2500);
    for (let index = 0; index < 5000; index++) {
      expect(compilePattern(`x${index}[a-z]+\\d*(?:q|r)*.$`).test(subject)).toBe(false);
    }
    expect(first.test("first-of-many")).toBe(true);
    expect(compilePattern("_$").test(subject)).toBe(true);
  });
});

describe("remembered answers", () => {
  test("a short subject asked again gets the same answer, also after many other subjects", () => {
    const pattern = compilePattern("^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$");
    expect(pattern.test("DE89370400440532013000")).toBe(true);
    expect(pattern.test("not an iban")).toBe(false);
    for (let i = 0; i < 2000; i++) pattern.test(`XX${String(i).padStart(13, "0")}`);
    expect(pattern.test("DE89370400440532013000")).toBe(true);
    expect(pattern.test("not an iban")).toBe(false);
  });
  test("long subjects are not remembered and are still matched", () => {
    const pattern = compilePattern("b$");
    const long = "a".repeat(100);
    expect(pattern.test(`${long}b`)).toBe(true);
    expect(pattern.test(long)).toBe(false);
  });
});

describe("checks remembered", () => {
  test("a pattern checked again is not read again, and many other patterns later it is still answered the same", () => {
    const iban = "^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$";
    const first = checkPortablePattern(iban);
    expect(checkPortablePattern(iban)).toBe(first);
    for (let n = 0; n < 5000; n++) expect(checkPortablePattern(`^x{${n % 900}}y${n}$`).ok).toBe(true);
    expect(checkPortablePattern(iban)).toEqual(first);
    expect(checkPortablePattern("(?<=a)b")).toEqual(checkPortablePattern("(?<=a)b"));
    expect(checkPortablePattern("(?<=a)b").ok).toBe(false);
  });
});
