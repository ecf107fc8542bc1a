import type { JsonValue } from "../value/json-value.ts";
import type { ExplainedNode } from "./explanation.ts";
import { valueText } from "./value-text.ts";

/**
 * What one node of an evaluated expression came to, in words: its value, that it was never
 * evaluated, or its error. The layout around them (an arrow, a badge) is each reader's own.
 */
export type NodeOutcome =
  | { readonly kind: "value"; readonly text: string; readonly cut: boolean }
  | { readonly kind: "skipped"; readonly text: string }
  | { readonly kind: "error"; readonly text: string };

export function nodeOutcome(node: ExplainedNode): NodeOutcome {
  if (node.error !== undefined) return { kind: "error", text: `error: ${node.error}` };
  if (node.skipped) return { kind: "skipped", text: "not evaluated" };
  return { kind: "value", text: valueText(node.value ?? null), cut: node.truncated === true };
}

/** Whether an expression is a literal: its value is itself, so it is not repeated beside it. */
export function isLiteral(expression: JsonValue): boolean {
  return expression === null || typeof expression !== "object";
}

/** Beside a value cut to stay readable. */
export const CUT_WORDS = "(cut)";

/** Beside a node that is one of the leaves that decided the rule's outcome. */
export const DECIDED_WORDS = "decided";

/** On a collection operator: whose body the tree shows. */
export function itemShownWords(item: number): string {
  return `its body is shown for item ${item}`;
}
