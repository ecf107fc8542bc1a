import { isJsonObject } from "../value/json-access.ts";
import type { EvaluationObserver } from "../evaluation/evaluation-observer.ts";
import type { EvaluationResult } from "../evaluation/evaluation-result.ts";
import { EXPRESSION_ROLES, type PreparedRule } from "../evaluation/prepared-rule.ts";
import type { EvaluationPlan } from "../evaluation/evaluation-plan.ts";
import type { JsonObject } from "../value/json-value.ts";
import { decidingLeaves } from "./deciding-leaves.ts";
import type { ExplainedNode, Explanation, ExplainMode, RuleExplanation, RuleStatus } from "./explanation.ts";
import type { ExpressionTrace } from "./expression-trace.ts";
import { RuleRoots } from "./rule-roots.ts";
import { resolutionOutcomes } from "./resolution-outcomes.ts";
import { notSelectedBecause, type SelectionRequest } from "./selection-reason.ts";
import { unmatchedNames } from "./unmatched-names.ts";
import { PlanIndex, type NamedPair } from "./plan-index.ts";
import { stateHash } from "./rule-list-cache.ts";
import { ruleSummary } from "./rule-summary.ts";
import type { NamedExpression, TreeLayout } from "./tree-layout.ts";
import type { ExplanationContext } from "./wording-context.ts";

/** What a rule did while it ran, as bits: evaluations keep one byte per rule. */
const STARTED = 1;
const WHEN_TRUE = 2;
const WHEN_FALSE = 4;
const FIRED = 8;
/** Once fired, later items or fields no longer replace what is shown. */
const FROZEN = 16;

/**
 * Watches one evaluation and builds its explanation: every rule of the manifest with what it did
 * and why in a sentence (its summary, said knowing the request, the result and the rules, as the
 * explorer says it), the names the request got wrong, the fate of each resolution, and in `full`
 * mode the traced expressions of each rule that ran. `trace` is the tracer of the (traced) plan
 * evaluated.
 */
export class ExplanationRecorder implements EvaluationObserver {
  private readonly state: Uint8Array;
  /** Why a rule failed closed, by position; made on the first failure. */
  private failures: (string | undefined)[] | undefined;
  /**
   * The item or field shown for a rule run per item or field, by position: the first that fired;
   * else, in `full` mode, the one that failed or the last one. (A rule that fails after one of its
   * items fired keeps showing that item, with the failure's message.)
   */
  private fields: (string | undefined)[] | undefined;
  /** The item or field the running rule is on, if it runs per item or field. */
  private current: string | undefined;
  /** In full mode, the traced roots of each rule that ran. */
  private readonly roots: RuleRoots | undefined;

  constructor(
    private readonly plan: EvaluationPlan,
    private readonly mode: ExplainMode,
    private readonly trace: ExpressionTrace | undefined,
  ) {
    this.state = new Uint8Array(plan.manifestRuleCount);
    if (trace !== undefined) {
      this.roots = new RuleRoots(plan.manifestRuleCount);
      trace.roots = this.roots.log;
      trace.quiet = false;
    }
  }

  ruleStarted(rule: PreparedRule): void {
    this.state[rule.position]! |= STARTED;
    this.current = undefined;
    if (this.trace !== undefined) {
      this.roots!.started(rule.position);
      this.trace.quiet = false;
    }
  }

  /**
   * The trees shown for a rule run per item or field are those of the last one, or of the first
   * that fired (or the one that failed): the others are evaluated untraced, and one of them that
   * fires or fails is run again, traced (`retracing`).
   */
  iterationStarted(rule: PreparedRule, pointer: string, last: boolean): boolean {
    if ((this.state[rule.position]! & FROZEN) !== 0) {
      if (this.trace !== undefined) this.trace.quiet = true;
      return false;
    }
    this.current = pointer;
    if (this.trace === undefined) return false;
    this.shownFields()[rule.position] = pointer;
    // Each item or field starts with no trees: what is shown all comes from the one named.
    this.roots!.restart(rule.position);
    this.trace.quiet = !last;
    return !last;
  }

  retracing(rule: PreparedRule): void {
    this.roots!.restart(rule.position);
    this.trace!.quiet = false;
  }

  whenDecided(rule: PreparedRule, holds: boolean): void {
    this.state[rule.position]! |= holds ? WHEN_TRUE : WHEN_FALSE;
  }

  ruleFired(rule: PreparedRule): void {
    const state = this.state[rule.position]!;
    this.state[rule.position] = state | FIRED;
    // The first item or field that fired is the one shown: its span of roots ends here, and later ones run untraced.
    if ((state & FROZEN) === 0 && this.current !== undefined) {
      this.state[rule.position]! |= FROZEN;
      this.shownFields()[rule.position] = this.current;
      this.roots?.freeze(rule.position);
    }
  }

  ruleFailed(rule: PreparedRule, detail: string): void {
    (this.failures ??= new Array(this.state.length))[rule.position] ??= detail;
  }

  /** Made on the first rule run per item or field that needs one: most explanations have none. */
  private shownFields(): (string | undefined)[] {
    return (this.fields ??= new Array(this.state.length));
  }

  explanation(request: JsonObject, result: EvaluationResult): Explanation {
    const entity = request.entity as string;
    const operation = request.operation as string;
    const index = PlanIndex.of(this.plan);
    const trigger = this.plan.channel === "client" ? request.trigger : undefined;
    const view = isJsonObject(request.view) ? request.view : null;
    // Without a trigger or a view, why a rule is left out depends on the entity and operation alone.
    const pair =
      view === null && (trigger === undefined || trigger === null) ? index.namedBy(entity, operation) : undefined;
    const context: ExplanationContext = { request, result, rules: index.facts };
    const explanation: Explanation = {
      rules: this.ruleEntries(request, index, pair, view, context),
      resolutions: resolutionOutcomes(request, index.rulesById, result.findings),
    };
    const unmatched = pair !== undefined ? pair.unmatched : unmatchedNames(index.names, entity, operation);
    if (unmatched !== undefined) explanation.unmatched = unmatched;
    return explanation;
  }

  /** Every rule of the manifest in order with what it did; in `rules` mode often a copy of an earlier explanation's list. */
  private ruleEntries(
    request: JsonObject,
    index: PlanIndex,
    pair: NamedPair | undefined,
    view: JsonObject | null,
    context: ExplanationContext,
  ): RuleExplanation[] {
    // Without failures or fields shown, a `rules` list is a function of the state bytes and the fields written (RuleListCache).
    const cacheable =
      pair !== undefined && this.mode === "rules" && this.failures === undefined && this.fields === undefined;
    const hash = cacheable ? stateHash(this.state) : 0;
    const effects = context.result!.effects;
    const known = cacheable ? pair.lists.find(this.state, hash, effects) : undefined;
    if (known !== undefined) return known;
    const order = this.plan.manifestOrder;
    const rules = new Array<RuleExplanation>(order.length);
    let selection: SelectionRequest | undefined;
    for (let i = 0; i < order.length; i++) {
      const rule = order[i]!;
      if ((this.state[rule.position]! & STARTED) !== 0) rules[i] = this.ranEntry(rule, index, context);
      else if (pair !== undefined) rules[i] = pair.reasons[i]!;
      else {
        selection ??= {
          entity: request.entity as string,
          operation: request.operation as string,
          channel: this.plan.channel,
          trigger: request.trigger,
          view,
        };
        // Selected but never run: an action after a deny (or after another action failed).
        rules[i] = index.notSelectedEntry(rule, notSelectedBecause(rule, selection) ?? "decision", context);
      }
    }
    const listed = index.withOtherKinds(rules);
    return cacheable ? pair.lists.keep(this.state, hash, effects, listed) : listed;
  }

  /** The entry of a rule that ran: its status and summary, and in `full` mode its trees. */
  private ranEntry(rule: PreparedRule, index: PlanIndex, context: ExplanationContext): RuleExplanation {
    const state = this.state[rule.position]!;
    const failure = this.failures?.[rule.position];
    const status: RuleStatus =
      failure !== undefined
        ? "error"
        : (state & FIRED) !== 0
          ? "fired"
          : (state & (WHEN_TRUE | WHEN_FALSE)) === WHEN_FALSE
            ? "when-false"
            : "passed";
    // The item or field whose trees are shown, or the first that fired.
    const field = this.fields?.[rule.position];
    const shownField = field !== undefined && (this.mode === "full" || status === "fired") ? field : undefined;
    if (this.mode === "rules" && failure === undefined && shownField === undefined)
      return index.statusEntry(rule, status as Exclude<RuleStatus, "not-selected">, context);
    const entry = { rule: rule.id, kind: rule.kind, status } as RuleExplanation;
    if (failure !== undefined) entry.message = failure;
    if (shownField !== undefined) entry.field = shownField;
    // The summary stands before the trees in the JSON; it is said once they are there (it reads a skipped assertion).
    entry.summary = "";
    if (this.mode === "full")
      this.addTrees(rule, (state & FIRED) !== 0, entry, index.treeLayout(rule, this.trace!.texts));
    // Trees change no words but a passed rule's skipped assertion (it ran on no item): the rest is said as a `rules` entry is, once.
    const ranOnNone = status === "passed" && entry.assert?.skipped === true;
    entry.summary =
      failure !== undefined
        ? ruleSummary(entry, context)
        : ranOnNone
          ? index.noItemSummary(rule, entry, context)
          : ruleSummary(
              entry,
              context,
              index.statusEntry(rule, status as Exclude<RuleStatus, "not-selected">, context).summary,
            );
    return entry;
  }

  /** The traced expressions of a rule that ran, and the leaves that decided a false `when` or a failed `assert`. */
  private addTrees(rule: PreparedRule, fired: boolean, entry: RuleExplanation, layout: TreeLayout): void {
    // The traced nodes are the explanation's nodes; an expression never evaluated has its skipped node.
    const roots = this.roots!;
    const position = rule.position;
    if (layout.when !== undefined) entry.when = roots.rootOf(position, EXPRESSION_ROLES.when) ?? layout.when;
    if (layout.assert !== undefined) entry.assert = roots.rootOf(position, EXPRESSION_ROLES.assert) ?? layout.assert;
    if (layout.assign !== undefined) {
      const assign = new Array<ExplainedNode>(layout.assign.length);
      for (let i = 0; i < assign.length; i++)
        assign[i] = roots.rootOf(position, layout.assign[i]![0]) ?? layout.assign[i]![1];
      entry.assign = assign;
    }
    if (fired && layout.args !== undefined) entry.args = namedTrees(roots, position, layout.args);
    if (fired && layout.commands !== undefined) {
      entry.commands = layout.commands.map((command) => ({
        idempotencyKey: command.key.map(([role, skipped]) => roots.rootOf(position, role) ?? skipped),
        payload: namedTrees(roots, position, command.payload),
      }));
    }
    if (entry.status === "when-false" && entry.when !== undefined) entry.because = decidingLeaves(entry.when, "/when");
    else if (rule.kind === "validation" && entry.status === "fired" && entry.assert !== undefined)
      entry.because = decidingLeaves(entry.assert, "/assert");
  }
}

/** The trees of named expressions (finding args, a command's payload), by name. */
function namedTrees(
  roots: RuleRoots,
  position: number,
  named: readonly NamedExpression[],
): Record<string, ExplainedNode> {
  const trees: Record<string, ExplainedNode> = {};
  for (let i = 0; i < named.length; i++) {
    const [name, role, skipped] = named[i]!;
    trees[name] = roots.rootOf(position, role) ?? skipped;
  }
  return trees;
}
