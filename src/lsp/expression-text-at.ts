import { ExpressionTextError } from "../compiler/expression-text/expression-tokens.ts";
import { parseExpressionText } from "../compiler/expression-text/parse-expression-text.ts";
import { textOffsetOf } from "../compiler/expression-text/scalar-offsets.ts";
import { expressionSlots } from "../compiler/expression-text/translate-text-expressions.ts";
import { valueAtPath } from "../engine/value/json-access.ts";
import type { JsonValue } from "../engine/value/json-value.ts";
import type { SourcePathAt } from "./source-path-at.ts";

/** A cursor inside an expression written as text (`{expr: "<text>"}` where an expression stands). */
export interface ExpressionTextAt {
  /** The path of the `{expr}` object from the document: where its tree stands once read. */
  readonly path: readonly string[];
  readonly text: string;
  /** The cursor's offset in the text (UTF-16), as the scalar's quotes, escapes and lines give it. */
  readonly offset: number;
}

/**
 * Whether what the cursor is on (`at`, found at `sourceOffset` of `source`) is the text of an
 * `{expr}` standing where an expression may stand in `document`, and where in that text. An
 * `expr` member anywhere else (a golden test's data, metadata) is data, as the compiler reads it.
 */
export function expressionTextAt(
  document: JsonValue | undefined,
  source: string,
  at: SourcePathAt | undefined,
  sourceOffset: number,
): ExpressionTextAt | undefined {
  if (at === undefined || at.part !== "value" || at.path.at(-1) !== "expr") return undefined;
  if (at.scalar === undefined || at.scalarStart === undefined) return undefined;
  const path = at.path.slice(0, -1);
  if (!isExpressionPlace(document, path)) return undefined;
  const offset = Math.min(at.scalar.length, textOffsetOf(source, at.scalarStart, sourceOffset));
  return { path, text: at.scalar, offset };
}

/** A place an expression stands: a rule's or function's expression, or an argument of one written as a tree. */
export function isExpressionPlace(document: JsonValue | undefined, path: readonly string[]): boolean {
  return expressionSlots(document ?? null).some((slot) => argumentPathWithin(slot.path, path) !== undefined);
}

/** The path from an expression at `slot` to the node at `path` inside it (`args/1/args/0`), when all of it is arguments. */
export function argumentPathWithin(slot: readonly string[], path: readonly string[]): string[] | undefined {
  if (path.length < slot.length || slot.some((segment, index) => path[index] !== segment)) return undefined;
  const inside = path.slice(slot.length);
  for (let index = 0; index < inside.length; index += 2)
    if (inside[index] !== "args" || !/^[0-9]+$/.test(inside[index + 1] ?? "")) return undefined;
  return inside;
}

/**
 * What the cursor inside an expression's text is on, as the path of that node from the document
 * (the read document holds the text's tree there): on a call's name or operator symbol the path
 * ends `op` or `fn`, on a path it ends `var`, with the name or path as `scalar`. The tree form's
 * hover, definition and references then answer as they answer for the same node written as a
 * tree. Undefined while the text does not read.
 */
export function nodePathInText(inText: ExpressionTextAt): SourcePathAt | undefined {
  let spans: ReadonlyMap<string, { start: number; end: number }>;
  let tree: JsonValue;
  try {
    ({ spans, tree } = parseExpressionText(inText.text));
  } catch (error) {
    if (error instanceof ExpressionTextError) return undefined;
    throw error;
  }
  // The deepest node written around the cursor; of two as deep, the narrower. A cursor just
  // after a name is still on it (editors place it there after a double click).
  let found: { path: string[]; width: number } | undefined;
  for (const [path, span] of spans) {
    if (inText.offset < span.start || inText.offset > span.end) continue;
    const segments = path === "" ? [] : path.split("/");
    const width = span.end - span.start;
    if (
      found === undefined ||
      segments.length > found.path.length ||
      (segments.length === found.path.length && width < found.width)
    )
      found = { path: segments, width };
  }
  if (found === undefined) return undefined;
  const node = valueAtPath(tree, found.path);
  return {
    path: [...inText.path, ...found.path],
    part: "value",
    inText: true,
    ...(typeof node === "string" ? { scalar: node } : {}),
  };
}

/**
 * What a request at a cursor is about: inside an expression's text, the node written there;
 * elsewhere what the YAML or JSON holds there (sourcePathAt).
 */
export function requestPathAt(
  document: JsonValue | undefined,
  source: string,
  at: SourcePathAt | undefined,
  sourceOffset: number,
): SourcePathAt | undefined {
  const inText = expressionTextAt(document, source, at, sourceOffset);
  return inText === undefined ? at : (nodePathInText(inText) ?? at);
}
