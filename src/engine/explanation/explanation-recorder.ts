import type { EvaluationObserver } from "../evaluation/evaluation-observer.ts";
import type { EvaluationResult } from "../evaluation/evaluation-result.ts";
import { EXPRESSION_ROLES, type PreparedRule } from "../evaluation/prepared-rule.ts";
import type { EvaluationPlan } from "../evaluation/evaluation-plan.ts";
import { listAt, objectAt } from "../value/json-access.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
import { decidingLeaves } from "./deciding-leaves.ts";
import { explainedNode, skippedNode } from "./explained-node.ts";
import type { ExplainedNode, Explanation, ExplainMode, RuleExplanation } from "./explanation.ts";
import type { ExpressionTrace, TraceRecord } from "./expression-trace.ts";
import { resolutionOutcomes } from "./resolution-outcomes.ts";
import { notSelectedBecause, type SelectionRequest } from "./selection-reason.ts";
import { declaredNames, unmatchedNames, type DeclaredNames } from "./unmatched-names.ts";

/** What a rule did while it ran, gathered from the evaluation's hooks. */
interface RuleRun {
  whenTrue: boolean;
  whenFalse: boolean;
  fired: boolean;
  failure: string | undefined;
  /** A rule run per item or field: the pointer of the one shown. */
  field: string | undefined;
  /** Once fired, later items or fields no longer replace what is shown. */
  frozen: boolean;
  roots: Map<string, TraceRecord>;
}

/** What explanations read of a plan, worked out on its first explanation. */
interface PlanIndex {
  readonly names: DeclaredNames;
  readonly rulesById: ReadonlyMap<string, PreparedRule>;
}
const indexByPlan = new WeakMap<EvaluationPlan, PlanIndex>();

function planIndex(plan: EvaluationPlan): PlanIndex {
  let index = indexByPlan.get(plan);
  if (index === undefined) {
    index = { names: declaredNames(plan.manifestOrder, plan.fieldTypeEntities), rulesById: new Map(plan.manifestOrder.map((rule) => [rule.id, rule])) };
    indexByPlan.set(plan, index);
  }
  return index;
}

/**
 * Watches one evaluation and builds its explanation: every rule of the manifest with what it did,
 * the names the request got wrong, the fate of each resolution, and in `full` mode the traced
 * expressions of each rule that ran. `trace` is the tracer of the (traced) plan evaluated.
 */
export class ExplanationRecorder implements EvaluationObserver {
  private readonly runs = new Map<PreparedRule, RuleRun>();
  /** Where a frozen rule's later evaluations are recorded, to be thrown away. */
  private readonly discarded = new Map<string, TraceRecord>();

  constructor(
    private readonly plan: EvaluationPlan,
    private readonly mode: ExplainMode,
    private readonly trace: ExpressionTrace | undefined,
  ) {}

  ruleStarted(rule: PreparedRule): void {
    const run: RuleRun = { whenTrue: false, whenFalse: false, fired: false, failure: undefined, field: undefined, frozen: false, roots: new Map() };
    this.runs.set(rule, run);
    if (this.trace !== undefined) this.trace.roots = run.roots;
  }

  iterationStarted(rule: PreparedRule, pointer: string): void {
    const run = this.runs.get(rule)!;
    if (!run.frozen) run.field = pointer;
  }

  whenDecided(rule: PreparedRule, holds: boolean): void {
    const run = this.runs.get(rule);
    if (run === undefined) return;
    if (holds) run.whenTrue = true;
    else run.whenFalse = true;
  }

  ruleFired(rule: PreparedRule): void {
    const run = this.runs.get(rule)!;
    run.fired = true;
    // The first item or field that fired is the one shown: later ones record where nobody reads.
    if (!run.frozen && this.trace !== undefined && run.field !== undefined) {
      run.frozen = true;
      this.trace.roots = this.discarded;
    }
  }

  ruleFailed(rule: PreparedRule, detail: string): void {
    const run = this.runs.get(rule);
    if (run !== undefined) run.failure ??= detail;
  }

  explanation(request: JsonObject, result: EvaluationResult): Explanation {
    const entity = request.entity as string;
    const operation = request.operation as string;
    const selection: SelectionRequest = {
      entity,
      operation,
      channel: this.plan.channel,
      trigger: request.trigger,
      view: typeof request.view === "object" && request.view !== null && !Array.isArray(request.view) ? request.view : null,
    };
    const rules = this.plan.manifestOrder.map((rule) => this.ruleExplanation(rule, selection));
    const index = planIndex(this.plan);
    const explanation: Explanation = { rules, resolutions: resolutionOutcomes(request, index.rulesById, result.findings) };
    const unmatched = unmatchedNames(index.names, entity, operation);
    if (unmatched !== undefined) explanation.unmatched = unmatched;
    return explanation;
  }

  private ruleExplanation(rule: PreparedRule, selection: SelectionRequest): RuleExplanation {
    const entry: RuleExplanation = { rule: rule.id, kind: rule.kind, status: "passed" };
    const run = this.runs.get(rule);
    if (run === undefined) {
      entry.status = "not-selected";
      // Selected but never run: an action after a deny (or after another action failed).
      entry.because = notSelectedBecause(rule, selection) ?? "decision";
      return entry;
    }
    if (run.failure !== undefined) {
      entry.status = "error";
      entry.message = run.failure;
    } else if (run.fired) entry.status = "fired";
    else if (run.whenFalse && !run.whenTrue) entry.status = "when-false";
    // The item or field whose trees are shown, or the first that fired.
    if (run.field !== undefined && (this.mode === "full" || entry.status === "fired")) entry.field = run.field;
    if (this.mode === "full") this.addTrees(rule, run, entry);
    return entry;
  }

  /** The traced expressions of a rule that ran, and the leaves that decided a false `when` or a failed `assert`. */
  private addTrees(rule: PreparedRule, run: RuleRun, entry: RuleExplanation): void {
    const source = rule.source;
    const tree = (role: string, expression: JsonValue | undefined): ExplainedNode => {
      const record = run.roots.get(role);
      return record === undefined ? skippedNode(expression ?? null) : explainedNode(record);
    };
    if (Object.hasOwn(source, "when")) entry.when = tree(EXPRESSION_ROLES.when, source.when);
    switch (rule.kind) {
      case "compute":
        entry.assign = listAt(source.assign).map((assignment, index) => tree(EXPRESSION_ROLES.assign(index), objectAt(assignment).value));
        break;
      case "validation": {
        entry.assert = tree(EXPRESSION_ROLES.assert, source.assert);
        const args = Object.entries(objectAt(objectAt(source.finding).args));
        if (run.fired && args.length > 0) entry.args = Object.fromEntries(args.map(([name, expression]) => [name, tree(EXPRESSION_ROLES.arg(name), expression)]));
        break;
      }
      case "action":
        if (run.fired) {
          entry.commands = listAt(source.commands).map((command, index) => ({
            idempotencyKey: listAt(objectAt(command).idempotencyKey).map((part, partIndex) => tree(EXPRESSION_ROLES.commandKey(index, partIndex), part)),
            payload: Object.fromEntries(Object.entries(objectAt(objectAt(command).payload)).map(([name, value]) => [name, tree(EXPRESSION_ROLES.commandPayload(index, name), value)])),
          }));
        }
        break;
    }
    if (entry.status === "when-false" && entry.when !== undefined) entry.because = decidingLeaves(entry.when, "/when");
    else if (rule.kind === "validation" && entry.status === "fired" && entry.assert !== undefined) entry.because = decidingLeaves(entry.assert, "/assert");
  }
}
