import type { EvaluationPlan } from "../evaluation/evaluation-plan.ts";
import type { PreparedRule } from "../evaluation/prepared-rule.ts";
import type { NotSelectedReason, RuleExplanation, RuleStatus } from "./explanation.ts";
import type { DeclaredNames } from "../names/declared-names.ts";
import { treeLayout, type TreeLayout } from "./tree-layout.ts";
import type { Channel } from "../bundle/channel.ts";
import { notSelectedBecause, type SelectionRequest } from "./selection-reason.ts";

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

  /** Entity and operation to the entries of the rules that did not run (see reasonsFor). */
  private readonly reasons = new Map<string, readonly RuleExplanation[]>();
  private readonly order: readonly PreparedRule[];
  private readonly channel: Channel;

  private constructor(plan: EvaluationPlan) {
    this.order = plan.manifestOrder;
    this.channel = plan.channel;
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

  /**
   * By manifest order, the entry each rule gets when it did not run, for a request of this entity
   * and operation with no trigger and no view (most requests): made once per pair, kept for a
   * bounded number of pairs.
   */
  reasonsFor(entity: string, operation: string): readonly RuleExplanation[] {
    const key = `${entity}\u0000${operation}`;
    let reasons = this.reasons.get(key);
    if (reasons === undefined) {
      const request: SelectionRequest = { entity, operation, channel: this.channel, trigger: undefined, view: null };
      // Selected but never run: an action after a deny (or after another action failed).
      reasons = this.order.map((rule) => this.notSelectedEntry(rule, notSelectedBecause(rule, request) ?? "decision"));
      if (this.reasons.size >= MAX_REASON_PAIRS) this.reasons.clear();
      this.reasons.set(key, reasons);
    }
    return reasons;
  }

  notSelectedEntry(rule: PreparedRule, because: NotSelectedReason): RuleExplanation {
    const entries = (this.entries[rule.position] ??= Object.create(null) as Record<string, RuleExplanation>);
    return (entries[because] ??= Object.freeze({ rule: rule.id, kind: rule.kind, status: "not-selected", because }));
  }
}

const indexes = new WeakMap<EvaluationPlan, PlanIndex>();
/** Requests name few entity and operation pairs; a flood of misspelt ones must not grow the map without end. */
const MAX_REASON_PAIRS = 256;
