import type { EvaluationPlan } from "../evaluation/evaluation-plan.ts";
import type { PreparedRule } from "../evaluation/prepared-rule.ts";
import type { NotSelectedReason, RuleExplanation, RuleStatus } from "./explanation.ts";
import type { DeclaredNames } from "../names/declared-names.ts";
import { treeLayout, type TreeLayout } from "./tree-layout.ts";

/**
 * What explanations read of a plan, worked out on its first explanation: the declared names, the
 * rules by id, the entries that say only a status (or why a rule was not selected), and where a
 * full explanation shows each rule's expressions. Those are the same for every evaluation, so
 * each is made once; the entries are shared, frozen, by every explanation that holds them.
 */
export class PlanIndex {
  readonly names: DeclaredNames;
  readonly rulesById: ReadonlyMap<string, PreparedRule>;
  /** By rule position: entries by status, or by reason for `not-selected` (the two sets of words do not meet). */
  private readonly entries: (Record<string, RuleExplanation> | undefined)[];
  /** By rule position. */
  private readonly layouts: (TreeLayout | undefined)[];

  private constructor(plan: EvaluationPlan) {
    this.names = plan.declaredNames;
    this.rulesById = new Map(plan.manifestOrder.map((rule) => [rule.id, rule]));
    this.entries = new Array(plan.manifestRuleCount);
    this.layouts = new Array(plan.manifestRuleCount);
  }

  static of(plan: EvaluationPlan): PlanIndex {
    let index = indexes.get(plan);
    if (index === undefined) indexes.set(plan, (index = new PlanIndex(plan)));
    return index;
  }

  statusEntry(rule: PreparedRule, status: Exclude<RuleStatus, "not-selected">): RuleExplanation {
    const entries = (this.entries[rule.position] ??= Object.create(null) as Record<string, RuleExplanation>);
    return (entries[status] ??= Object.freeze({ rule: rule.id, kind: rule.kind, status }));
  }

  treeLayout(rule: PreparedRule): TreeLayout {
    return (this.layouts[rule.position] ??= treeLayout(rule));
  }

  notSelectedEntry(rule: PreparedRule, because: NotSelectedReason): RuleExplanation {
    const entries = (this.entries[rule.position] ??= Object.create(null) as Record<string, RuleExplanation>);
    return (entries[because] ??= Object.freeze({ rule: rule.id, kind: rule.kind, status: "not-selected", because }));
  }
}

const indexes = new WeakMap<EvaluationPlan, PlanIndex>();
