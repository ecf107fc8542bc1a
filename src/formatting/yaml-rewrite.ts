import { isCollection, isMap, isScalar, parseDocument, type Document, type ParsedNode, type YAMLMap } from "yaml";
import { isJsonObject } from "../engine/value/json-access.ts";
import type { ExpressionRewrite } from "./expression-rewrites.ts";
import { applySplices, lineEndOf, lineStartOf, type TextSplice } from "./text-splices.ts";
import { fitsOnLine, isBlockable, yamlBlock, yamlFlow, yamlTextExpression } from "./yaml-expression-writer.ts";

/**
 * Writes expressions anew in a YAML ruleset source, and nothing else: the `yaml` package's
 * document finds where each expression is written (its node's range), and only those characters
 * are replaced. Comments, blank lines, quoting, folded text and flow collections elsewhere stay
 * byte for byte; re-printing the whole document (Document.toString) would re-wrap and re-space
 * hundreds of lines of `rules/` that hold no expression.
 *
 * An expression written as text becomes `{ expr: "..." }` on its key's line (or after its `- `).
 * A tree goes there too when it fits on the line, in block style below its key when not (flow
 * style inside a flow collection, or before a comment on its line, whatever its width).
 */
export function rewriteYaml(text: string, rewrites: readonly ExpressionRewrite[]): string {
  if (rewrites.length === 0) return text;
  const document = parseDocument(text, { schema: "core", version: "1.2", merge: false, uniqueKeys: false });
  const layout = { step: indentationStep(text), newline: text.includes("\r\n") ? "\r\n" : "\n" };
  return applySplices(
    text,
    rewrites.map((rewrite) => splice(text, document, rewrite, layout)),
  );
}

/** The file's indentation step and line break, for lines written into it. */
interface Layout {
  readonly step: string;
  readonly newline: string;
}

function splice(text: string, document: Document.Parsed, rewrite: ExpressionRewrite, layout: Layout): TextSplice {
  const { step, newline } = layout;
  const node = document.getIn(rewrite.path, true) as ParsedNode | undefined;
  const parent = document.getIn(rewrite.path.slice(0, -1), true);
  if (node?.range === undefined || parent === undefined || !isCollection(parent))
    throw new Error(`no YAML node at ${rewrite.path.join("/")}`);
  const [start, valueEnd] = node.range;
  let end = valueEnd;
  // A block collection's range runs to the next line: the line feed and what follows stay.
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  const inFlow = parent.flow === true;
  const indicator = inFlow ? undefined : indicatorBefore(text, start, isMap(parent) ? ":" : "-");
  // On the indicator's line, one space after it; else (a comment between them) where the node was.
  const at = indicator === undefined ? start : indicator + 1;
  const prefix = indicator === undefined ? "" : " ";
  const column = at - lineStartOf(text, at) + prefix.length;
  const value = rewrite.value;
  if (rewrite.form === "text" && isJsonObject(value) && typeof value.expr === "string")
    return { start: at, end, text: prefix + yamlTextExpression(value.expr) };
  const flow = yamlFlow(value);
  const restOfLine = text.slice(end, lineEndOf(text, end)).trim();
  if (inFlow || restOfLine !== "" || !isJsonObject(value) || !isBlockable(value) || fitsOnLine(flow, column))
    return { start: at, end, text: prefix + flow };
  if (isMap(parent) && indicator !== undefined) {
    // Below the key, one step deeper than it.
    const keyIndentation = " ".repeat(indentationOf(text, keyStart(parent, rewrite)));
    return { start: at, end, text: newline + yamlBlock(value, keyIndentation + step, step).join(newline) };
  }
  // After a `- ` (`- op: and`), or where the node started: its first member there, the others lined up with it.
  const [first, ...rest] = yamlBlock(value, " ".repeat(column), step);
  return { start: at, end, text: [prefix + first!.trimStart(), ...rest].join(newline) };
}

/**
 * The offset of the `:` (or `-`) a node follows, when only blanks and line breaks are between
 * them; undefined when something else is (a comment), and the node is rewritten where it starts.
 */
function indicatorBefore(text: string, start: number, indicator: string): number | undefined {
  let at = start - 1;
  while (at >= 0 && /\s/.test(text[at]!)) at--;
  return text[at] === indicator ? at : undefined;
}

/** Where the key of a map's member is written. */
function keyStart(map: YAMLMap, rewrite: ExpressionRewrite): number {
  const name = rewrite.path.at(-1);
  for (const { key } of map.items) if (isScalar(key) && String(key.value) === name) return key.range?.[0] ?? 0;
  return 0;
}

/** How far into its line the text at `offset` starts: the column nested lines are indented past. */
function indentationOf(text: string, offset: number): number {
  return offset - lineStartOf(text, offset);
}

/** The file's indentation step: the least indentation of a line that holds content, two spaces if none. */
function indentationStep(text: string): string {
  let least = Number.POSITIVE_INFINITY;
  for (const match of text.matchAll(/^( +)[^\s#]/gm)) least = Math.min(least, match[1]!.length);
  return " ".repeat(Number.isFinite(least) ? least : 2);
}
