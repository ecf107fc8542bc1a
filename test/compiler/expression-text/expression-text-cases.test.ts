import { describe, expect, test } from "bun:test";
import { ExpressionTextError } from "../../../src/compiler/expression-text/expression-tokens.ts";
import { parseExpressionText } from "../../../src/compiler/expression-text/parse-expression-text.ts";
import { printExpressionText } from "../../../src/engine/expression-text/print-expression-text.ts";
import { goldenJsonFiles } from "../../support/golden-files.ts";

/**
 * The expression-text corpus (test/cases/expression-text): each text reads as its tree, the tree
 * prints as the text (or as `printed`, the shortest form) and that reads back as the tree; each
 * refused text fails at its character with words that say why.
 */
interface Notation {
  reads: { name: string; text: string; tree: unknown; printed?: string }[];
  refusals: { name: string; text: string; offset: number; messageIncludes: string }[];
}

const files = goldenJsonFiles("expression-text");

test("the corpus is there", () => {
  const notation = files.map((file) => file.content as Notation);
  expect(notation.flatMap((file) => file.reads).length).toBeGreaterThanOrEqual(40);
  expect(notation.flatMap((file) => file.refusals).length).toBeGreaterThanOrEqual(20);
});

for (const file of files) {
  const notation = file.content as Notation;
  describe(file.name, () => {
    for (const read of notation.reads)
      test(`reads: ${read.name}`, () => {
        const { tree } = parseExpressionText(read.text);
        expect(tree).toEqual(read.tree as never);
        const printed = printExpressionText(tree);
        expect(printed).toBe(read.printed ?? read.text);
        expect(parseExpressionText(printed!).tree).toEqual(read.tree as never);
      });
    for (const refusal of notation.refusals)
      test(`refuses: ${refusal.name}`, () => {
        let error: unknown;
        try {
          parseExpressionText(refusal.text);
        } catch (thrown) {
          error = thrown;
        }
        expect(error).toBeInstanceOf(ExpressionTextError);
        const { message, offset } = error as ExpressionTextError;
        expect({
          offset,
          words: message.includes(refusal.messageIncludes) ? refusal.messageIncludes : message,
        }).toEqual({
          offset: refusal.offset,
          words: refusal.messageIncludes,
        });
      });
  });
}
