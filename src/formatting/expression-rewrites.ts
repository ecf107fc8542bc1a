import { printExpressionText } from "../engine/expression-text/print-expression-text.ts";
import { isJsonObject } from "../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../engine/value/json-value.ts";
import { parseExpressionText } from "../compiler/expression-text/parse-expression-text.ts";
import { expressionSlots } from "../compiler/expression-text/translate-text-expressions.ts";

/** How `fmt` writes expressions: `{expr: "<text>"}`, or trees (what every Rule Cascade runtime reads). */
export type ExpressionForm = "text" | "tree";

export const EXPRESSION_FORMS: readonly ExpressionForm[] = ["text", "tree"];

/** An expression to write in the other form: where it is in the document, and what to write there. */
export interface ExpressionRewrite {
  readonly path: readonly string[];
  readonly form: ExpressionForm;
  /** `{expr: "<text>"}` for text, the tree for a tree. */
  readonly value: JsonValue;
}

/**
 * What writing a document's expressions in `form` changes, expression by expression (none of
 * them inside another). Only the form changes, never the tree an expression means:
 * - text: each expression at a slot (translate-text-expressions.ts) that is not text yet, as the
 *   text printExpressionText gives; one it cannot print stays a tree, and its arguments are
 *   written as text each where they can be. Literals stay as they are.
 * - tree: each `{expr}` (at a slot or an argument of a tree) as the tree its text reads as.
 * Expressions already in the form are left as written. The document's texts are known to read
 * (the caller read it with readRulesetSource).
 */
export function expressionRewrites(document: JsonValue, form: ExpressionForm): ExpressionRewrite[] {
  const rewrites: ExpressionRewrite[] = [];
  for (const slot of expressionSlots(document))
    if (form === "text") rewriteAsText(slot.expression, slot.path, rewrites);
    else rewriteAsTree(slot.expression, slot.path, rewrites);
  return rewrites;
}

function isText(node: JsonObject): boolean {
  return Object.hasOwn(node, "expr");
}

function rewriteAsTree(node: JsonValue, path: readonly string[], rewrites: ExpressionRewrite[]): void {
  if (!isJsonObject(node)) return;
  if (isText(node)) {
    rewrites.push({ path, form: "tree", value: treeOf(node) });
    return;
  }
  forEachArgument(node, path, (arg, argPath) => rewriteAsTree(arg, argPath, rewrites));
}

function rewriteAsText(node: JsonValue, path: readonly string[], rewrites: ExpressionRewrite[]): void {
  if (!isJsonObject(node) || isText(node)) return;
  const text = printExpressionText(treeOf(node));
  if (text !== undefined) rewrites.push({ path, form: "text", value: { expr: text } });
  else forEachArgument(node, path, (arg, argPath) => rewriteAsText(arg, argPath, rewrites));
}

function forEachArgument(
  node: JsonObject,
  path: readonly string[],
  visit: (arg: JsonValue, path: readonly string[]) => void,
): void {
  if (Array.isArray(node.args)) node.args.forEach((arg, index) => visit(arg, [...path, "args", String(index)]));
}

/** An expression with every `{expr}` in it read as its tree; the expression itself is not changed. */
function treeOf(node: JsonValue): JsonValue {
  if (!isJsonObject(node)) return node;
  if (isText(node)) return parseExpressionText(String(node.expr)).tree;
  if (!Array.isArray(node.args)) return node;
  return { ...node, args: node.args.map(treeOf) };
}
