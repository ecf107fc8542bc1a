import type { EvaluationObserver } from "../evaluation/evaluation-observer.ts";
import type { EvaluationResult } from "../evaluation/evaluation-result.ts";
import { EXPRESSION_ROLES, type PreparedRule } from "../evaluation/prepared-rule.ts";
import type { EvaluationPlan } from "../evaluation/evaluation-plan.ts";
import { listAt, objectAt } from "../value/json-access.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
import { decidingLeaves } from "./deciding-leaves.ts";
import { explainedNode, skippedNode } from "./explained-node.ts";
import type { ExplainedNode, Explanation, ExplainMode, RuleExplanation, RuleStatus } from "./explanation.ts";
import { rootOf, type ExpressionTrace, type TraceSink } from "./expression-trace.ts";
import { resolutionOutcomes } from "./resolution-outcomes.ts";
import { notSelectedBecause, type SelectionRequest } from "./selection-reason.ts";
import { unmatchedNames } from "./unmatched-names.ts";
import { PlanIndex } from "./plan-index.ts";

/** What a rule did while it ran, as bits: evaluations keep one byte per rule. */
const STARTED = 1;
const WHEN_TRUE = 2;
const WHEN_FALSE = 4;
const FIRED = 8;
/** Once fired, later items or fields no longer replace what is shown. */
const FROZEN = 16;

/**
 * Watches one evaluation and builds its explanation: every rule of the manifest with what it did,
 * the names the request got wrong, the fate of each resolution, and in `full` mode the traced
 * expressions of each rule that ran. `trace` is the tracer of the (traced) plan evaluated.
 */
export class ExplanationRecorder implements EvaluationObserver {
  private readonly state: Uint8Array;
  /** Why a rule failed closed, by position; made on the first failure. */
  private failures: (string | undefined)[] | undefined;
  /** The item or field shown for a rule run per item or field, by position. */
  private fields: (string | undefined)[] | undefined;
  /** In full mode, where each rule's expressions store their traced roots, by position. */
  private readonly sinks: (TraceSink | undefined)[] | undefined;
  /** Where a frozen rule's later evaluations are recorded, to be thrown away. */
  private readonly discarded: TraceSink = { roots: undefined };

  constructor(
    private readonly plan: EvaluationPlan,
    private readonly mode: ExplainMode,
    private readonly trace: ExpressionTrace | undefined,
  ) {
    this.state = new Uint8Array(plan.manifestRuleCount);
    this.sinks = trace === undefined ? undefined : new Array(plan.manifestRuleCount);
  }

  ruleStarted(rule: PreparedRule): void {
    this.state[rule.position]! |= STARTED;
    if (this.trace !== undefined) this.trace.sink = this.sinks![rule.position] = { roots: undefined };
  }

  iterationStarted(rule: PreparedRule, pointer: string): void {
    if ((this.state[rule.position]! & FROZEN) !== 0) return;
    (this.fields ??= [])[rule.position] = pointer;
    // Each item or field starts with no trees: what is shown all comes from the one named.
    const sink = this.sinks?.[rule.position];
    if (sink !== undefined) sink.roots = undefined;
  }

  whenDecided(rule: PreparedRule, holds: boolean): void {
    this.state[rule.position]! |= holds ? WHEN_TRUE : WHEN_FALSE;
  }

  ruleFired(rule: PreparedRule): void {
    const state = this.state[rule.position]!;
    this.state[rule.position] = state | FIRED;
    // The first item or field that fired is the one shown: later ones record where nobody reads.
    if ((state & FROZEN) === 0 && this.trace !== undefined && this.fields?.[rule.position] !== undefined) {
      this.state[rule.position]! |= FROZEN;
      this.trace.sink = this.discarded;
    }
  }

  ruleFailed(rule: PreparedRule, detail: string): void {
    (this.failures ??= [])[rule.position] ??= detail;
  }

  explanation(request: JsonObject, result: EvaluationResult): Explanation {
    const entity = request.entity as string;
    const operation = request.operation as string;
    const index = PlanIndex.of(this.plan);
    const order = this.plan.manifestOrder;
    const rules = new Array<RuleExplanation>(order.length);
    let selection: SelectionRequest | undefined;
    for (let i = 0; i < order.length; i++) {
      const rule = order[i]!;
      if ((this.state[rule.position]! & STARTED) !== 0) rules[i] = this.ranEntry(rule, index);
      else {
        selection ??= {
          entity,
          operation,
          channel: this.plan.channel,
          trigger: request.trigger,
          view: typeof request.view === "object" && request.view !== null && !Array.isArray(request.view) ? request.view : null,
        };
        // Selected but never run: an action after a deny (or after another action failed).
        rules[i] = index.notSelectedEntry(rule, notSelectedBecause(rule, selection) ?? "decision");
      }
    }
    const explanation: Explanation = { rules, resolutions: resolutionOutcomes(request, index.rulesById, result.findings) };
    const unmatched = unmatchedNames(index.names, entity, operation);
    if (unmatched !== undefined) explanation.unmatched = unmatched;
    return explanation;
  }

  /** The entry of a rule that ran: its status, and in `full` mode its trees. */
  private ranEntry(rule: PreparedRule, index: PlanIndex): RuleExplanation {
    const state = this.state[rule.position]!;
    const failure = this.failures?.[rule.position];
    const status: RuleStatus = failure !== undefined ? "error" : (state & FIRED) !== 0 ? "fired" : (state & (WHEN_TRUE | WHEN_FALSE)) === WHEN_FALSE ? "when-false" : "passed";
    // The item or field whose trees are shown, or the first that fired.
    const field = this.fields?.[rule.position];
    const shownField = field !== undefined && (this.mode === "full" || status === "fired") ? field : undefined;
    if (this.mode === "rules" && failure === undefined && shownField === undefined) return index.statusEntry(rule, status as Exclude<RuleStatus, "not-selected">);
    const entry: RuleExplanation = { rule: rule.id, kind: rule.kind, status };
    if (failure !== undefined) entry.message = failure;
    if (shownField !== undefined) entry.field = shownField;
    if (this.mode === "full") this.addTrees(rule, (state & FIRED) !== 0, this.sinks![rule.position]?.roots, entry);
    return entry;
  }

  /** The traced expressions of a rule that ran, and the leaves that decided a false `when` or a failed `assert`. */
  private addTrees(rule: PreparedRule, fired: boolean, roots: TraceSink["roots"], entry: RuleExplanation): void {
    const layout = treeLayout(rule);
    const tree = (role: string, expression: JsonValue): ExplainedNode => {
      const record = rootOf(roots, role);
      return record === undefined ? skippedNode(expression) : explainedNode(record);
    };
    if (layout.when !== undefined) entry.when = tree(EXPRESSION_ROLES.when, layout.when);
    if (layout.assert !== undefined) entry.assert = tree(EXPRESSION_ROLES.assert, layout.assert);
    if (layout.assign !== undefined) entry.assign = layout.assign.map((expression, index) => tree(EXPRESSION_ROLES.assign(index), expression));
    if (fired && layout.args !== undefined) {
      const args: Record<string, ExplainedNode> = {};
      for (const [name, expression] of layout.args) args[name] = tree(EXPRESSION_ROLES.arg(name), expression);
      entry.args = args;
    }
    if (fired && layout.commands !== undefined) {
      entry.commands = layout.commands.map((command, index) => {
        const payload: Record<string, ExplainedNode> = {};
        for (const [name, expression] of command.payload) payload[name] = tree(EXPRESSION_ROLES.commandPayload(index, name), expression);
        return { idempotencyKey: command.key.map((part, partIndex) => tree(EXPRESSION_ROLES.commandKey(index, partIndex), part)), payload };
      });
    }
    if (entry.status === "when-false" && entry.when !== undefined) entry.because = decidingLeaves(entry.when, "/when");
    else if (rule.kind === "validation" && entry.status === "fired" && entry.assert !== undefined) entry.because = decidingLeaves(entry.assert, "/assert");
  }
}

/** The expressions of a rule as its manifest entry holds them, in the places a full explanation shows them. */
interface TreeLayout {
  readonly when: JsonValue | undefined;
  readonly assert: JsonValue | undefined;
  readonly assign: readonly JsonValue[] | undefined;
  /** Finding args, shown only when the rule fired; absent when it has none. */
  readonly args: readonly (readonly [string, JsonValue])[] | undefined;
  readonly commands: readonly { readonly key: readonly JsonValue[]; readonly payload: readonly (readonly [string, JsonValue])[] }[] | undefined;
}

const layouts = new WeakMap<PreparedRule, TreeLayout>();

function treeLayout(rule: PreparedRule): TreeLayout {
  let layout = layouts.get(rule);
  if (layout !== undefined) return layout;
  const source = rule.source;
  const args = rule.kind === "validation" ? Object.entries(objectAt(objectAt(source.finding).args)) : [];
  layout = {
    when: Object.hasOwn(source, "when") ? (source.when ?? null) : undefined,
    assert: rule.kind === "validation" ? (source.assert ?? null) : undefined,
    assign: rule.kind === "compute" ? listAt(source.assign).map((assignment) => objectAt(assignment).value ?? null) : undefined,
    args: args.length > 0 ? args : undefined,
    commands: rule.kind === "action" ? listAt(source.commands).map((command) => ({ key: listAt(objectAt(command).idempotencyKey), payload: Object.entries(objectAt(objectAt(command).payload)) })) : undefined,
  };
  layouts.set(rule, layout);
  return layout;
}
