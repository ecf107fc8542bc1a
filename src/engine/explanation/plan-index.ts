import type { EvaluationPlan } from "../evaluation/evaluation-plan.ts";
import type { PreparedRule } from "../evaluation/prepared-rule.ts";
import type { ReadableExpressionTexts } from "../expression-text/print-expression-text.ts";
import type { Explanation, NotSelectedReason, RuleExplanation, RuleStatus, WordedRule } from "./explanation.ts";
import { wordsText } from "./explanation-words.ts";
import { noItemReason, noItemReasonWords } from "./no-item-wording.ts";
import type { DeclaredNames } from "../names/declared-names.ts";
import { treeLayout, type TreeLayout } from "./tree-layout.ts";
import type { Channel } from "../bundle/channel.ts";
import { notSelectedBecause, type SelectionRequest } from "./selection-reason.ts";
import { RuleListCache } from "./rule-list-cache.ts";
import { unmatchedNames } from "./unmatched-names.ts";
import { ruleSummary } from "./rule-summary.ts";
import { fieldsWrittenBy } from "./rule-status-wording.ts";
import type { ExplanationContext, RuleFacts } from "./wording-context.ts";

/**
 * What the explanations of requests naming one entity and operation, with no trigger and no view
 * (most requests), have in common: made once per pair (PlanIndex.namedBy).
 */
export interface NamedPair {
  /** By manifest order, the entry each rule gets when it did not run. */
  readonly reasons: readonly RuleExplanation[];
  /** The names the ruleset does not declare, with the closest ones; frozen. */
  readonly unmatched: Explanation["unmatched"];
  readonly lists: RuleListCache;
}

/**
 * What explanations read of a plan, worked out on its first explanation: the declared names, the
 * rules by id, the entries that say only a status (or why a rule was not selected) with their
 * summaries, and where a full explanation shows each rule's expressions. Those are the same for
 * every evaluation, so each is made once; the entries are shared, frozen, by every explanation
 * that holds them. An entry whose summary names what the request gave or what the result holds
 * (the request's entity, operation or trigger; the fields a compute or state rule wrote) is made
 * for its request, but for those of a NamedPair, made once per pair.
 */
export class PlanIndex {
  readonly names: DeclaredNames;
  readonly rulesById: ReadonlyMap<string, PreparedRule>;
  /** The rules as the manifest holds them, by id: what summaries say of a rule. */
  readonly facts: ReadonlyMap<string, RuleFacts>;
  /** By rule position: a rule's `not-selected` entries by reason. */
  private readonly entries: (Record<string, RuleExplanation> | undefined)[];
  /**
   * By rule position and status (RAN_STATUSES): a ran rule's entry that says its status alone.
   * One flat array: every explanation looks up each rule that ran, and a lookup by a computed
   * name in a record per rule cost more than the rest of the summary.
   */
  private readonly ranEntries: (RuleExplanation | undefined)[];
  /** By rule position: the summaries of a rule that ran on no item, by reason (noItemReason). */
  private readonly noItemSummaries: (Map<string, string> | undefined)[];
  /** By rule position: a fired compute or state rule's entries, by the fields it wrote. */
  private readonly firedEntries: (Map<string, RuleExplanation> | undefined)[];
  /** By rule position: the fields a fired compute or state rule wrote last time, and its entry then. */
  private readonly lastFired: ({ readonly fields: readonly string[]; readonly entry: RuleExplanation } | undefined)[];
  /** By rule position. */
  private readonly layouts: (TreeLayout | undefined)[];

  /** By entity, then operation (see namedBy). */
  private readonly pairs = new Map<string, Map<string, NamedPair>>();
  private pairCount = 0;
  private readonly order: readonly PreparedRule[];
  private readonly channel: Channel;
  /** The rules of kinds no runtime runs, by manifest position, each with its one entry. */
  private readonly otherKinds: readonly { readonly position: number; readonly entry: RuleExplanation }[];

  private constructor(plan: EvaluationPlan) {
    this.order = plan.manifestOrder;
    this.channel = plan.channel;
    this.names = plan.declaredNames;
    this.rulesById = new Map(plan.manifestOrder.map((rule) => [rule.id, rule]));
    this.facts = new Map(plan.manifestOrder.map((rule) => [rule.id, rule.source as unknown as RuleFacts]));
    this.entries = new Array(plan.manifestRuleCount);
    this.ranEntries = new Array(plan.manifestRuleCount * RAN_STATUSES.length);
    this.firedEntries = new Array(plan.manifestRuleCount);
    this.lastFired = new Array(plan.manifestRuleCount);
    this.noItemSummaries = new Array(plan.manifestRuleCount);
    this.layouts = new Array(plan.manifestRuleCount);
    this.otherKinds = plan.otherKindRules.map(({ id, kind, position }) => {
      const entry = { rule: id, kind, status: "not-selected", because: "kind" } as const;
      return { position, entry: Object.freeze({ ...entry, summary: ruleSummary(entry, {}) }) };
    });
  }

  /**
   * `list` (an entry per rule of a known kind, in manifest order) with the rules of other kinds
   * put in their places, so that an explanation lists every rule of the manifest.
   */
  withOtherKinds(list: RuleExplanation[]): RuleExplanation[] {
    const others = this.otherKinds;
    if (others.length === 0) return list;
    const order = this.order;
    const merged = new Array<RuleExplanation>(list.length + others.length);
    let known = 0;
    let other = 0;
    for (let at = 0; at < merged.length; at++) {
      const takeOther =
        other < others.length && (known >= list.length || others[other]!.position < order[known]!.position);
      merged[at] = takeOther ? others[other++]!.entry : list[known++]!;
    }
    return merged;
  }

  static of(plan: EvaluationPlan): PlanIndex {
    let index = indexes.get(plan);
    if (index === undefined) indexes.set(plan, (index = new PlanIndex(plan)));
    return index;
  }

  /**
   * The entry of a rule that ran and shows nothing more (`rules` mode), said in `context`. Its
   * words read only the rule, but for a compute or state rule that fired: those name the fields
   * it wrote in this result, so its entry is made for it.
   */
  statusEntry(
    rule: PreparedRule,
    status: Exclude<RuleStatus, "not-selected">,
    context: ExplanationContext,
  ): RuleExplanation {
    if (status === "fired" && (rule.kind === "compute" || rule.kind === "state")) {
      // Its words name the fields it wrote: one entry per set of fields, a few sets a rule; most
      // requests write what the last one did, which is checked without making the list.
      const type = rule.kind === "compute" ? "value" : "state";
      const last = this.lastFired[rule.position];
      if (last !== undefined && wroteJust(rule.id, type, context, last.fields)) return last.entry;
      const fields = fieldsWrittenBy(rule.id, type, context) ?? [];
      const written = (this.firedEntries[rule.position] ??= new Map());
      const key = fields.join("\n");
      let entry = written.get(key);
      if (entry === undefined) {
        entry = Object.freeze(saidEntry(rule, status, context));
        if (written.size < MAX_WORDINGS_PER_RULE) written.set(key, entry);
      }
      this.lastFired[rule.position] = { fields, entry };
      return entry;
    }
    const at = rule.position * RAN_STATUSES.length + RAN_STATUSES.indexOf(status);
    return (this.ranEntries[at] ??= Object.freeze(saidEntry(rule, status, context)));
  }

  /**
   * The summary of a passed rule whose assertion was skipped (it ran on no item or field): said
   * once per reason (what the request held at its list), as ruleSummary says it.
   */
  noItemSummary(rule: PreparedRule, entry: WordedRule, context: ExplanationContext): string {
    const reason = noItemReason(entry, context);
    if (reason === undefined) return ruleSummary(entry, context);
    // A rule run per field of a type names the request's entity.
    const key = reason === "type" ? `type:${String(context.request?.entity)}` : reason;
    const summaries = (this.noItemSummaries[rule.position] ??= new Map());
    let summary = summaries.get(key);
    if (summary === undefined) {
      summary = wordsText(noItemReasonWords(reason, this.facts.get(rule.id), context));
      if (summaries.size < MAX_WORDINGS_PER_RULE) summaries.set(key, summary);
    }
    return summary;
  }

  /** `texts`: those of the traced plan (ExpressionTrace), which printed its expressions already. */
  treeLayout(rule: PreparedRule, texts: ReadableExpressionTexts): TreeLayout {
    return (this.layouts[rule.position] ??= treeLayout(rule, texts));
  }

  /** What explanations of requests naming this entity and operation share; kept for a bounded number of pairs. */
  namedBy(entity: string, operation: string): NamedPair {
    let operations = this.pairs.get(entity);
    let pair = operations?.get(operation);
    if (pair !== undefined) return pair;
    const request: SelectionRequest = { entity, operation, channel: this.channel, trigger: undefined, view: null };
    const context: ExplanationContext = { request: { entity, operation }, rules: this.facts };
    pair = {
      // Selected but never run: an action after a deny (or after another action failed).
      reasons: this.order.map((rule) =>
        this.notSelectedEntry(rule, notSelectedBecause(rule, request) ?? "decision", context),
      ),
      unmatched: frozenUnmatched(unmatchedNames(this.names, entity, operation)),
      lists: new RuleListCache(),
    };
    if (this.pairCount >= MAX_PAIRS) {
      this.pairs.clear();
      this.pairCount = 0;
      operations = undefined;
    }
    if (operations === undefined) this.pairs.set(entity, (operations = new Map()));
    operations.set(operation, pair);
    this.pairCount++;
    return pair;
  }

  /**
   * The entry of a rule that did not take part, said in `context`: shared by reason, but for the
   * reasons whose words name what the request gave, made for it.
   */
  notSelectedEntry(rule: PreparedRule, because: NotSelectedReason, context: ExplanationContext): RuleExplanation {
    const entry = { rule: rule.id, kind: rule.kind, status: "not-selected", because } as const;
    if (NAMES_THE_REQUEST.has(because)) return Object.freeze({ ...entry, summary: ruleSummary(entry, context) });
    const entries = (this.entries[rule.position] ??= Object.create(null) as Record<string, RuleExplanation>);
    return (entries[because] ??= Object.freeze({ ...entry, summary: ruleSummary(entry, context) }));
  }
}

/**
 * Whether the rule's effects of `type` in the context's result wrote exactly `fields`, in that
 * order, each once (what fieldsWrittenBy would give), without making the list.
 */
function wroteJust(
  rule: string,
  type: "value" | "state",
  context: ExplanationContext,
  fields: readonly string[],
): boolean {
  let matched = 0;
  for (const effect of context.result?.effects ?? []) {
    if (effect.rule !== rule || effect.type !== type) continue;
    if (effect.field === fields[matched]) matched++;
    else {
      // A field written again is one already matched; any other is not in the list, or out of order.
      const at = fields.indexOf(effect.field);
      if (at === -1 || at >= matched) return false;
    }
  }
  return matched === fields.length;
}

/** The statuses of a rule that ran, in the order ranEntries keeps them. */
const RAN_STATUSES: readonly Exclude<RuleStatus, "not-selected">[] = ["when-false", "passed", "fired", "error"];

/** A rule that ran and what it says, with its status alone. */
function saidEntry(
  rule: PreparedRule,
  status: Exclude<RuleStatus, "not-selected">,
  context: ExplanationContext,
): RuleExplanation {
  const entry = { rule: rule.id, kind: rule.kind, status };
  return { ...entry, summary: ruleSummary(entry, context) };
}

const indexes = new WeakMap<EvaluationPlan, PlanIndex>();
/** The reasons a rule was not selected whose words say what the request gave (not-selected-wording.ts). */
const NAMES_THE_REQUEST: ReadonlySet<NotSelectedReason> = new Set(["entity", "operation", "trigger"]);
/** Requests name few entity and operation pairs; a flood of misspelt ones must not grow the map without end. */
const MAX_PAIRS = 256;
/**
 * Wordings kept per rule (a fired rule's by the fields it wrote, a rule that ran on no item by its
 * reason): requests that come out in many ways get their words made each time.
 */
const MAX_WORDINGS_PER_RULE = 16;

/** Shared by every explanation of the pair: no holder may change it. */
function frozenUnmatched(unmatched: Explanation["unmatched"]): Explanation["unmatched"] {
  if (unmatched === undefined) return undefined;
  if (unmatched.entity !== undefined) Object.freeze(unmatched.entity);
  if (unmatched.operation !== undefined) Object.freeze(unmatched.operation);
  return Object.freeze(unmatched);
}
