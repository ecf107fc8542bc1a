import { jsonValueSpan } from "../compiler/source/json-locator.ts";
import type { ExpressionRewrite } from "./expression-rewrites.ts";
import { jsonFlow, jsonLaidOut, jsonStyleOf } from "./json-expression-writer.ts";
import { applySplices, lineStartOf, type TextSplice } from "./text-splices.ts";

/**
 * Writes expressions anew in a JSON ruleset source, and nothing else: each expression's value is
 * replaced where it is written (json-locator.ts finds it), laid out in the file's indentation
 * (json-expression-writer.ts); key order, spacing and every other line stay as they were.
 * Re-serializing the whole document instead would undo the layout of files written by hand
 * (`rules/customer-onboarding.ruleset.json` keeps short objects on one line).
 */
export function rewriteJson(text: string, rewrites: readonly ExpressionRewrite[]): string {
  if (rewrites.length === 0) return text;
  const style = jsonStyleOf(text);
  const splices = rewrites.map((rewrite): TextSplice => {
    const span = jsonValueSpan(text, rewrite.path);
    if (span === undefined) throw new Error(`no JSON value at ${rewrite.path.join("/")}`);
    const lineStart = lineStartOf(text, span.start);
    const indentation = /^[ \t]*/.exec(text.slice(lineStart, span.start))![0];
    // A text stays on its line, however long, where the file writes objects on one line.
    const written =
      rewrite.form === "text" && style.objectsOnOneLine
        ? jsonFlow(rewrite.value, style)
        : jsonLaidOut(rewrite.value, style, indentation, span.start - lineStart);
    return { ...span, text: written };
  });
  return applySplices(text, splices);
}
