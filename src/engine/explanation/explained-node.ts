import type { JsonValue } from "../value/json-value.ts";
import type { ExplainedNode } from "./explanation.ts";
import type { TraceRecord } from "./expression-trace.ts";

/** The node of an expression that was never evaluated. */
export function skippedNode(expression: unknown): ExplainedNode {
  return { expr: expression as JsonValue, skipped: true };
}

/** A traced evaluation as an explanation shows it: the node, its value, its arguments in order. */
export function explainedNode(record: TraceRecord): ExplainedNode {
  const site = record.site;
  // Most nodes are leaves with a value that was not cut: one object of one shape.
  if (site.rawArgs === undefined && record.error === undefined && record.value !== undefined && !record.truncated) return { expr: site.expression as JsonValue, value: record.value };
  const node: ExplainedNode = { expr: site.expression as JsonValue };
  if (record.error !== undefined) node.error = record.error;
  else if (record.value !== undefined) {
    node.value = record.value;
    if (record.truncated) node.truncated = true;
  }
  const rawArgs = site.rawArgs;
  if (rawArgs === undefined) return node;
  const args = new Array<ExplainedNode | undefined>(rawArgs.length);
  const children = record.children ?? [];
  if (site.collection && children.length > 2) {
    // The list once, then the body once per item: shown for the item that decided.
    const items = children.filter((child) => child.index === 1);
    const item = decidingItem(site.operator!, items);
    node.item = item;
    args[1] = explainedNode(items[item]!);
    for (const child of children) if (child.index !== 1) args[child.index] = explainedNode(child);
  } else {
    for (const child of children) args[child.index] ??= explainedNode(child);
    if (site.collection && children.length === 2) node.item = 0;
  }
  for (let index = 0; index < rawArgs.length; index++) args[index] ??= skippedNode(rawArgs[index]);
  node.args = args as ExplainedNode[];
  return node;
}

/**
 * The item a collection's body is shown for: the one that decided the result (the first false
 * item of `all`, the first true one of `some` and `none`), otherwise the first.
 */
function decidingItem(operator: string, calls: readonly TraceRecord[]): number {
  const wanted = operator === "all" ? false : operator === "some" || operator === "none" ? true : undefined;
  if (wanted === undefined) return 0;
  const index = calls.findIndex((call) => call.value === wanted);
  return index === -1 ? 0 : index;
}
