import { describe, expect, test } from "bun:test";
import { isMap, isPair, isScalar, parseDocument } from "yaml";
import { sourceOffsetOf, textOffsetOf } from "../../../src/compiler/expression-text/scalar-offsets.ts";

/**
 * A character of a string value and where the source writes it, both ways, for every way YAML and
 * JSON write a string: each character of the value is found at the place that writes it, and each
 * place that writes a character gives that character back.
 */

/** The value of member `expr` of a one-member document, and where its scalar starts. */
function scalarOf(source: string): { value: string; start: number } {
  const contents = parseDocument(source).contents;
  if (!isMap(contents)) throw new Error("not a mapping");
  const pair = contents.items[0];
  if (!isPair(pair) || !isScalar(pair.value)) throw new Error("no scalar");
  return { value: String(pair.value.value), start: pair.value.range![0] };
}

const STYLES: Record<string, string> = {
  "double-quoted with escapes": 'expr: "data.a == \\"\\u00e9\\" && \\tb\\\\c"\n',
  "single-quoted with a doubled quote": "expr: 'data.name == \"it''s\" && x'\n",
  plain: "expr: data.a > 1 && data.b < 2\n",
  "plain over two lines": "expr: data.a > 1\n  && data.b < 2\n",
  "literal block": "expr: |\n  data.a > 1\n  && data.b\n",
  "folded block": "expr: >-\n    data.a >\n    1\n",
  JSON: '{"expr": "data.a == \\"\\u00e9\\" \\/ 2"}',
};

describe("every scalar style", () => {
  for (const [style, source] of Object.entries(STYLES)) {
    test(`${style}: each character is where the source writes it, and back`, () => {
      const { value, start } = scalarOf(source);
      for (let offset = 0; offset < value.length; offset++) {
        const written = sourceOffsetOf(source, start, offset);
        // A character written as itself is found as itself; an escape or a folded line break writes it otherwise.
        if (/[A-Za-z0-9.&|<>=]/.test(value[offset]!)) expect(source[written]).toBe(value[offset]!);
        expect(textOffsetOf(source, start, written)).toBe(offset);
      }
    });
  }
});

describe("the source's places in the value", () => {
  test("a cursor inside an escape is on the character the escape writes", () => {
    const source = STYLES["double-quoted with escapes"]!;
    const { value, start } = scalarOf(source);
    const escapeStart = source.indexOf("\\u00e9");
    for (let inside = escapeStart; inside < escapeStart + 6; inside++)
      expect(value[textOffsetOf(source, start, inside)]).toBe("é");
  });

  test("a cursor on the opening quote is at the value's start; on the closing quote, at its end", () => {
    const source = STYLES["single-quoted with a doubled quote"]!;
    const { value, start } = scalarOf(source);
    expect(textOffsetOf(source, start, start)).toBe(0);
    expect(textOffsetOf(source, start, source.lastIndexOf("'"))).toBe(value.length);
  });

  test("in a block, a cursor on the second line is past the first line and its break", () => {
    const source = STYLES["literal block"]!;
    const { value, start } = scalarOf(source);
    expect(textOffsetOf(source, start, source.indexOf("&&"))).toBe(value.indexOf("&&"));
    expect(textOffsetOf(source, start, source.indexOf("data.a"))).toBe(0);
  });

  test("past the value: its end as written", () => {
    const source = STYLES["double-quoted with escapes"]!;
    const { value, start } = scalarOf(source);
    expect(sourceOffsetOf(source, start, value.length + 5)).toBe(source.lastIndexOf('"'));
  });
});
