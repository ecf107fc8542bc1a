import { escapePointerToken } from "../value/json-pointer-token.ts";
import type { ExplainedNode, RuleExplanation } from "./explanation.ts";
import type { ExplanationContext } from "./wording-context.ts";

/** One evaluated expression of a rule: what it is to people, its tree, and its place in the rule's entry. */
export interface ExplainedTree {
  readonly label: string;
  readonly node: ExplainedNode;
  /** A JSON Pointer from the rule's entry (`/when`, `/args/amount`), as `because` names leaves. */
  readonly pointer: string;
}

/**
 * A rule's evaluated expressions in the order a reader follows them: its condition, its
 * assertion, what it assigns (by field where the rule is known), its message's arguments and its
 * commands' parts.
 */
export function explainedTrees(entry: RuleExplanation, context: ExplanationContext = {}): ExplainedTree[] {
  const assigned = context.rules?.get(entry.rule)?.assign;
  const trees: ExplainedTree[] = [];
  if (entry.when !== undefined) trees.push({ label: "when", node: entry.when, pointer: "/when" });
  if (entry.assert !== undefined) trees.push({ label: "assert", node: entry.assert, pointer: "/assert" });
  entry.assign?.forEach((node, index) =>
    trees.push({ label: `assign ${assigned?.[index]?.field ?? index + 1}`, node, pointer: `/assign/${index}` }),
  );
  for (const [name, node] of Object.entries(entry.args ?? {}))
    trees.push({ label: `message argument {${name}}`, node, pointer: `/args/${escapePointerToken(name)}` });
  entry.commands?.forEach((command, index) => {
    command.idempotencyKey.forEach((node, part) =>
      trees.push({
        label: `command ${index + 1}, idempotency key part ${part + 1}`,
        node,
        pointer: `/commands/${index}/idempotencyKey/${part}`,
      }),
    );
    for (const [name, node] of Object.entries(command.payload))
      trees.push({
        label: `command ${index + 1}, payload ${name}`,
        node,
        pointer: `/commands/${index}/payload/${escapePointerToken(name)}`,
      });
  });
  return trees;
}

/** The leaves a rule's entry names as deciding its outcome. */
export function decidingPointers(entry: RuleExplanation): ReadonlySet<string> {
  return new Set(Array.isArray(entry.because) ? entry.because : []);
}
