import { callArguments, operatorOf } from "../expression/expression-shape.ts";
import type { JsonValue } from "../value/json-value.ts";
import { isValueObject } from "../value/value-kind.ts";
import type { ExplainedNode } from "./explanation.ts";
import type { TraceRecord } from "./expression-trace.ts";

/** Operators whose second argument is evaluated once per item of the first. */
const COLLECTIONS = new Set(["all", "some", "none", "sum", "map", "filter"]);

/** The node of an expression that was never evaluated. */
export function skippedNode(expression: unknown): ExplainedNode {
  return { expr: expression as JsonValue, skipped: true };
}

/** A traced evaluation as an explanation shows it: the node, its value, its arguments in order. */
export function explainedNode(record: TraceRecord): ExplainedNode {
  const node: ExplainedNode = { expr: record.expression as JsonValue };
  if (record.error !== undefined) node.error = record.error;
  else if (record.value !== undefined) {
    node.value = record.value.value;
    if (record.value.truncated) node.truncated = true;
  }
  const rawArgs = isValueObject(record.expression) ? callArguments(record.expression) : undefined;
  if (rawArgs === undefined) return node;
  const operator = operatorOf(record.expression as Record<string, never>);
  node.args = rawArgs.map((argument, index) => {
    const calls = record.calls[index];
    if (calls === undefined || calls.length === 0) return skippedNode(argument);
    if (calls.length === 1 || operator === undefined || !COLLECTIONS.has(operator) || index !== 1) return explainedNode(calls[0]!);
    const item = decidingItem(operator, calls);
    node.item = item;
    return explainedNode(calls[item]!);
  });
  return node;
}

/**
 * The item a collection's body is shown for: the one that decided the result (the first false
 * item of `all`, the first true one of `some` and `none`), otherwise the first.
 */
function decidingItem(operator: string, calls: readonly TraceRecord[]): number {
  const wanted = operator === "all" ? false : operator === "some" || operator === "none" ? true : undefined;
  if (wanted === undefined) return 0;
  const index = calls.findIndex((call) => call.value?.value === wanted);
  return index === -1 ? 0 : index;
}
