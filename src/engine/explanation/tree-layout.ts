import { EXPRESSION_ROLES, type PreparedRule } from "../evaluation/prepared-rule.ts";
import type { ReadableExpressionTexts } from "../expression-text/print-expression-text.ts";
import { listAt, objectAt } from "../value/json-access.ts";
import { skippedNode } from "./explained-node.ts";
import type { ExplainedNode } from "./explanation.ts";

/** An expression of a rule: the role its traced root is stored under, and its node when it was never evaluated. */
type RoleExpression = readonly [role: string, skipped: ExplainedNode];
/** A named expression (a finding arg, a command payload member) with its role and its node when never evaluated. */
export type NamedExpression = readonly [name: string, role: string, skipped: ExplainedNode];

/** The expressions of a rule as its manifest entry holds them, in the places a full explanation shows them, with their roles. */
export interface TreeLayout {
  readonly when: ExplainedNode | undefined;
  readonly assert: ExplainedNode | undefined;
  readonly assign: readonly RoleExpression[] | undefined;
  /** Finding args, shown only when the rule fired; absent when it has none. */
  readonly args: readonly NamedExpression[] | undefined;
  readonly commands:
    | readonly { readonly key: readonly RoleExpression[]; readonly payload: readonly NamedExpression[] }[]
    | undefined;
}

/** Read once per rule of a plan (PlanIndex), on the rule's first full explanation; `texts` are the traced plan's. */
export function treeLayout(rule: PreparedRule, texts: ReadableExpressionTexts): TreeLayout {
  const source = rule.source;
  const neverEvaluated = (expression: unknown): ExplainedNode => skippedNode(expression, texts.of(expression));
  const args =
    rule.kind === "validation"
      ? Object.entries(objectAt(objectAt(source.finding).args)).map(
          ([name, expression]) => [name, EXPRESSION_ROLES.arg(name), neverEvaluated(expression)] as const,
        )
      : [];
  return {
    when: Object.hasOwn(source, "when") ? neverEvaluated(source.when ?? null) : undefined,
    assert: rule.kind === "validation" ? neverEvaluated(source.assert ?? null) : undefined,
    assign:
      rule.kind === "compute"
        ? listAt(source.assign).map(
            (assignment, index) =>
              [EXPRESSION_ROLES.assign(index), neverEvaluated(objectAt(assignment).value ?? null)] as const,
          )
        : undefined,
    args: args.length > 0 ? args : undefined,
    commands:
      rule.kind === "action"
        ? listAt(source.commands).map((command, index) => ({
            key: listAt(objectAt(command).idempotencyKey).map(
              (part, partIndex) => [EXPRESSION_ROLES.commandKey(index, partIndex), neverEvaluated(part)] as const,
            ),
            payload: Object.entries(objectAt(objectAt(command).payload)).map(
              ([name, expression]) =>
                [name, EXPRESSION_ROLES.commandPayload(index, name), neverEvaluated(expression)] as const,
            ),
          }))
        : undefined,
  };
}
