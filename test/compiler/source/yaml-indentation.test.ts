import { describe, expect, test } from "bun:test";
import { LineCounter, parseAllDocuments, type Document } from "yaml";
import { mendIndentation } from "../../../src/compiler/source/yaml-indentation.ts";

/**
 * The search for indentation slips (what it reports is pinned by the located-problems corpus,
 * test/cases/located-problems/indentation.json): what it mends, what it leaves to the parser, and
 * that it is bounded.
 */
const parse = (text: string): Document.Parsed[] =>
  parseAllDocuments(text, {
    schema: "core",
    version: "1.2",
    uniqueKeys: false,
    logLevel: "silent",
    prettyErrors: true,
    lineCounter: new LineCounter(),
  }) as Document.Parsed[];

function mendCounting(text: string): { mended: ReturnType<typeof mendIndentation>; parses: number } {
  let parses = 0;
  const mended = mendIndentation(text, parse(text), (again) => {
    parses++;
    return parse(again);
  });
  return { mended, parses };
}

const RULE = [
  "rules:",
  "  - id: a",
  "    severity: error",
  "    finding:",
  "      code: A-1",
  "      message: a",
  "  - id: b",
  "    severity: error",
  "",
];

describe("mending", () => {
  test("the mended text is the author's with only the slipped line re-indented", () => {
    const slipped = RULE.map((line, index) => (index === 3 ? ` ${line}` : line)).join("\n");
    const { mended } = mendCounting(slipped);
    expect(mended?.text).toBe(RULE.join("\n"));
    expect(mended?.slips.map(({ line, column }) => ({ line, column }))).toEqual([{ line: 4, column: 6 }]);
  });

  test("a column on a re-indented line is told in the author's text", () => {
    const slipped = RULE.map((line, index) => (index === 3 ? `   ${line}` : line)).join("\n");
    const { mended } = mendCounting(slipped);
    expect(mended?.originalColumn(4, 5)).toBe(8);
    expect(mended?.originalColumn(5, 7)).toBe(7);
  });

  test("each slip is found once, the next from the error left after the first", () => {
    const slipped = RULE.map((line, index) => (index === 3 || index === 7 ? ` ${line}` : line)).join("\n");
    expect(mendCounting(slipped).mended?.slips.map((slip) => slip.line)).toEqual([4, 8]);
  });
});

describe("left to the parser", () => {
  test("a text that reads is not searched", () => {
    expect(mendCounting(RULE.join("\n"))).toEqual({ mended: undefined, parses: 0 });
  });

  test("an error that is not of indentation is not searched", () => {
    expect(mendCounting('a:\n  b: "\\q"\n')).toEqual({ mended: undefined, parses: 0 });
  });

  test("an error no re-indenting removes is left as it is", () => {
    expect(mendCounting("a:\n  b: 'open\n  c: 1\n").mended).toBeUndefined();
  });
});

describe("bounds", () => {
  test("the search parses the text at most 60 times", () => {
    // Every rule's `finding:` slipped: more slips than the search may mend.
    const slipped = Array.from({ length: 40 }, (_, rule) =>
      RULE.slice(1, 7).map((line, index) =>
        index === 2 ? ` ${line.replace("a", `a${rule}`)}` : line.replace(": a", `: a${rule}`),
      ),
    );
    const { parses } = mendCounting(["rules:", ...slipped.flat(), ""].join("\n"));
    expect(parses).toBeLessThanOrEqual(60);
  });
});
