import { CodeActionKind, type CodeAction, type Position, type Range } from "vscode-languageserver/node";
import { isMap, isPair, isSeq, parseDocument, type Node } from "yaml";
import { ExpressionTextError } from "../compiler/expression-text/expression-tokens.ts";
import { parseExpressionText } from "../compiler/expression-text/parse-expression-text.ts";
import { expressionSlots } from "../compiler/expression-text/translate-text-expressions.ts";
import { readSource } from "../compiler/source/read-source.ts";
import { positionAt } from "../compiler/source/source-position.ts";
import { printExpressionText } from "../engine/expression-text/print-expression-text.ts";
import { jsonFlow, jsonStyleOf } from "../formatting/json-expression-writer.ts";
import { yamlFlow, yamlTextExpression } from "../formatting/yaml-expression-writer.ts";
import { isJsonObject } from "../engine/value/json-access.ts";
import type { JsonValue } from "../engine/value/json-value.ts";
import { valueAtPath } from "../engine/value/json-access.ts";
import { argumentPathWithin } from "./expression-text-at.ts";
import { pathOfUri } from "./file-uri.ts";
import { offsetAt } from "./text-range.ts";

export const WRITE_AS_TEXT = "Write as text";
export const WRITE_AS_TREE = "Write as a tree";

/** A node of the source around the cursor: its path from the document and where it is written. */
interface PlacedNode {
  readonly path: readonly string[];
  readonly start: number;
  readonly end: number;
}

/**
 * The two forms of an expression, each written as the other where the cursor is (DECISIONS.md,
 * "Expressions written as text"): inside an expression written as a tree, "Write as text" puts
 * `{ expr: "<text>" }` in its place, when the tree can be text; on an `{expr}`, "Write as a tree"
 * puts its tree there, as flow YAML, or JSON in a .json file. Each edit replaces exactly what the
 * expression's node spans, so that the source compiles to the same bundle either way.
 */
export function expressionFormActions(uri: string, text: string, range: Range): CodeAction[] {
  const file = pathOfUri(uri) ?? uri;
  const read = readSource(text, file);
  const document = read.ok ? read.value : read.salvaged;
  if (document === undefined) return [];
  // On one line, as fmt writes an expression in flow style.
  const json = file.toLowerCase().endsWith(".json") ? jsonStyleOf(text) : undefined;
  const inFlowStyle = (value: JsonValue): string => (json === undefined ? yamlFlow(value) : jsonFlow(value, json));
  const asText = (printed: string): string =>
    json === undefined ? yamlTextExpression(printed) : jsonFlow({ expr: printed }, json);
  const around = nodesAround(text, offsetAt(text, range.start));
  const slots = expressionSlots(document).map((slot) => slot.path);
  const actions: CodeAction[] = [];
  const edit = (title: string, node: PlacedNode, newText: string): CodeAction => ({
    title,
    kind: CodeActionKind.RefactorRewrite,
    edit: { changes: { [uri]: [{ range: rangeOf(text, node), newText }] } },
  });
  // The innermost `{expr}` around the cursor, where an expression stands.
  const textNode = around.find((node) => {
    const value = valueAtPath(document, node.path);
    return isTextExpression(value) && slots.some((slot) => argumentPathWithin(slot, node.path) !== undefined);
  });
  const tree = textNode === undefined ? undefined : treeOf(valueAtPath(document, textNode.path) ?? null);
  if (textNode !== undefined && tree !== undefined) actions.push(edit(WRITE_AS_TREE, textNode, inFlowStyle(tree)));
  // The whole expression around the cursor, when written as a tree (its arguments may be texts).
  const slot = around.find((node) => slots.some((path) => samePath(path, node.path)));
  const slotValue = slot === undefined ? undefined : valueAtPath(document, slot.path);
  if (slot !== undefined && slotValue !== undefined && isJsonObject(slotValue) && !isTextExpression(slotValue)) {
    const whole = treeOf(slotValue);
    const printed = whole === undefined ? undefined : printExpressionText(whole);
    if (printed !== undefined) actions.push(edit(WRITE_AS_TEXT, slot, asText(printed)));
  }
  return actions;
}

/** What an `{expr}` object (the one member `expr`) holds; undefined for any other value. */
function writtenText(value: JsonValue | undefined): JsonValue | undefined {
  if (value === undefined || !isJsonObject(value) || Object.keys(value).length !== 1) return undefined;
  return value.expr;
}

function isTextExpression(value: JsonValue | undefined): boolean {
  return writtenText(value) !== undefined;
}

/** An expression's tree, its arguments written as text read as the compiler reads them; undefined when a text does not read. */
function treeOf(value: JsonValue): JsonValue | undefined {
  const text = writtenText(value);
  if (text !== undefined) {
    if (typeof text !== "string") return undefined;
    try {
      return parseExpressionText(text).tree;
    } catch (error) {
      if (error instanceof ExpressionTextError) return undefined;
      throw error;
    }
  }
  if (!isJsonObject(value) || !Array.isArray(value.args)) return value;
  const args: JsonValue[] = [];
  for (const arg of value.args) {
    const tree = treeOf(arg);
    if (tree === undefined) return undefined;
    args.push(tree);
  }
  return { ...value, args };
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, index) => b[index] === segment);
}

/**
 * The nodes of the source that hold the offset, innermost first, by the ranges the YAML parser
 * keeps (JSON is YAML). A node's end leaves out the line breaks and spaces after a block collection.
 */
function nodesAround(text: string, offset: number): PlacedNode[] {
  const around: PlacedNode[] = [];
  const path: string[] = [];
  let node = parseDocument(text, { strict: false, uniqueKeys: false }).contents as Node | null;
  for (let depth = 0; node?.range != null && depth < 200; depth++) {
    const [start, valueEnd] = node.range;
    if (offset < start || offset > valueEnd) break;
    around.unshift({ path: [...path], start, end: start + text.slice(start, valueEnd).trimEnd().length });
    let next: Node | null = null;
    if (isMap(node)) {
      for (const pair of node.items) {
        const value = isPair(pair) ? (pair.value as Node | null) : null;
        const key = isPair(pair) ? (pair.key as { value?: unknown } | null) : null;
        if (value?.range != null && offset >= value.range[0] && offset <= value.range[1] && key?.value != null) {
          path.push(String(key.value));
          next = value;
          break;
        }
      }
    } else if (isSeq(node)) {
      const index = node.items.findIndex((item) => {
        const range = (item as Node | null)?.range;
        return range != null && offset >= range[0] && offset <= range[1];
      });
      if (index !== -1) {
        path.push(String(index));
        next = node.items[index] as Node;
      }
    }
    node = next;
  }
  return around;
}

function rangeOf(text: string, node: PlacedNode): Range {
  return { start: positionOf(text, node.start), end: positionOf(text, node.end) };
}

function positionOf(text: string, offset: number): Position {
  const { line, column } = positionAt(text, offset);
  return { line: line - 1, character: column - 1 };
}
