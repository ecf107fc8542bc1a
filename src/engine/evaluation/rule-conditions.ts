import type { ScopeReader } from "../expression/generated-path-reader.ts";
import { prepareExpression, type PrepareContext } from "../expression/prepare-expression.ts";
import type { Node } from "../expression/prepared-node.ts";
import { readVariable } from "../expression/variable-reference.ts";
import { leadingCondition, type LeadingCondition, type SharedCondition } from "./leading-condition.ts";
import { EXPRESSION_ROLES, type PreparedRule } from "./prepared-rule.ts";

/**
 * The leading conditions of a plan's rules and what evaluating them needs, worked out once per
 * plan for every selection that indexes its rules (applicability-index.ts): a shared condition is
 * prepared once however many rules start with it, and a variable gets the reader its expressions
 * read it with.
 */
export class RuleConditions {
  private readonly leading = new Map<PreparedRule, LeadingCondition | undefined>();
  private readonly nodes = new Map<string, Node>();

  /** `context` is the plan's untraced one: the same functions, operators and code generation as its rules. */
  constructor(private readonly context: PrepareContext) {}

  of(rule: PreparedRule): LeadingCondition | undefined {
    if (this.leading.has(rule)) return this.leading.get(rule);
    const condition = leadingCondition(rule);
    this.leading.set(rule, condition);
    return condition;
  }

  node(condition: SharedCondition): Node {
    let node = this.nodes.get(condition.key);
    if (node === undefined)
      this.nodes.set(
        condition.key,
        (node = prepareExpression(condition.expression, this.context, EXPRESSION_ROLES.when)),
      );
    return node;
  }

  reader(variable: string): ScopeReader {
    return readVariable(variable, this.context.codeGeneration);
  }
}
