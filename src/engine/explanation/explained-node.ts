import type { JsonValue } from "../value/json-value.ts";
import type { Value } from "../value/value-kind.ts";
import type { ExplainedNode } from "./explanation.ts";
import { isShownAsIs, readableValue } from "./readable-value.ts";

/**
 * The nodes of a full explanation, made as the traced nodes finish (expression-trace.ts): each is
 * made once, with its members in the order the JSON shows them (expr, text, value or error,
 * truncated, item, args), and never rebuilt. A node's text is printed once per place, when the
 * plan is prepared, and given to every node made there. A node that is the same in every explanation (an expression
 * never evaluated, a literal's value) is made once, when the plan is prepared, and shared, frozen,
 * as PlanIndex shares the entries that say only a status.
 */

/** The node of an expression that was never evaluated (made once per place, shared). */
export function skippedNode(expression: unknown, text: string): ExplainedNode {
  return Object.freeze({ expr: expression as JsonValue, text, skipped: true });
}

/** The node of a literal once evaluated, which is always the same (made once per place, shared); undefined for a number too large to leave the engine. */
export function literalNode(literal: JsonValue, text: string): ExplainedNode | undefined {
  try {
    return Object.freeze(valuedNode(literal, text, literal, undefined, undefined));
  } catch {
    return undefined;
  }
}

/** A node that gave a value. Throws, leaving no node, for a value that cannot leave the engine (a number too large). */
function valuedNode(
  expr: JsonValue,
  text: string,
  value: Value,
  args: ExplainedNode[] | undefined,
  item: number | undefined,
): ExplainedNode {
  if (item === undefined && isShownAsIs(value))
    return args === undefined
      ? { expr, text, value: value as JsonValue }
      : { expr, text, value: value as JsonValue, args };
  const cut = { truncated: false };
  const node: ExplainedNode = { expr, text, value: readableValue(value, cut) };
  if (cut.truncated) node.truncated = true;
  return withArgs(node, args, item);
}

/**
 * The node of a value an expression gave: shown as it leaves the engine, or bare (no `value`) when
 * it cannot leave, such as an intermediate number above the largest double. Only what leaves the
 * rule is checked for that, and explaining must never change a result, so this never throws.
 */
export function shownNode(
  expr: JsonValue,
  text: string,
  value: Value,
  args: ExplainedNode[] | undefined,
  item: number | undefined,
): ExplainedNode {
  // Most values are shown as they are (valuedNode's first case), made here without a call or a try.
  if (item === undefined && isShownAsIs(value))
    return args === undefined
      ? { expr, text, value: value as JsonValue }
      : { expr, text, value: value as JsonValue, args };
  try {
    return valuedNode(expr, text, value, args, item);
  } catch {
    return bareNode(expr, text, args, item);
  }
}

/** A node that raised the error its rule failed closed with. */
export function raisingNode(
  expr: JsonValue,
  text: string,
  error: string,
  args: ExplainedNode[] | undefined,
  item: number | undefined,
): ExplainedNode {
  return withArgs({ expr, text, error }, args, item);
}

/** A node that gave a value that could not be shown (a number too large to leave the engine). */
function bareNode(
  expr: JsonValue,
  text: string,
  args: ExplainedNode[] | undefined,
  item: number | undefined,
): ExplainedNode {
  return withArgs({ expr, text }, args, item);
}

function withArgs(node: ExplainedNode, args: ExplainedNode[] | undefined, item: number | undefined): ExplainedNode {
  if (item !== undefined) node.item = item;
  if (args !== undefined) node.args = args;
  return node;
}

/** The argument slots of a finished node, with the arguments never evaluated filled in with their skipped nodes. */
export function filledArgs(slots: (ExplainedNode | undefined)[], skipped: readonly ExplainedNode[]): ExplainedNode[] {
  for (let index = 0; index < slots.length; index++) slots[index] ??= skipped[index];
  return slots as ExplainedNode[];
}
