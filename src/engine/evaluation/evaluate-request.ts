import { fail } from "../errors.ts";
import { expectBoolean } from "../expression/argument-checks.ts";
import { Scope } from "../expression/scope.ts";
import { compare } from "../number/arithmetic.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
import { toLeavingValue } from "../value/leaving-value.ts";
import { renderText } from "../value/rendered-text.ts";
import { valuesEqual } from "../value/value-equality.ts";
import type { ValueObject } from "../value/value-kind.ts";
import type { Command, Decision, Effect, EvaluationResult, EvaluationTally, Finding } from "./evaluation-result.ts";
import { summarize } from "./evaluation-result.ts";
import type { EvaluationPlan, RuleSelection } from "./evaluation-plan.ts";
import { MessageCatalogs } from "./message-catalog.ts";
import type {
  ActionRule,
  ComputeRule,
  PreparedRule,
  StateEffect,
  StateProperty,
  StateRule,
  ValidationRule,
} from "./prepared-rule.ts";
import { checkRequestShape } from "./request-shape.ts";
import { narrowedToView } from "./rule-selection.ts";
import type { RulesNotApplying, SettledRules } from "./rules-not-applying.ts";
import type { EvaluationObserver } from "./evaluation-observer.ts";
import { failedClosedFinding, failureDetail } from "./failed-closed.ts";
import { RequestResolutions } from "./request-resolutions.ts";
import { WorkingData } from "./working-data.ts";

/**
 * Evaluates one operation on one entity against a plan (specification section 8). Pure: no clock,
 * no I/O. A rule that cannot be evaluated fails closed with a blocking finding; only a request
 * without the required shape is refused (RequestShapeError).
 */
export function evaluateRequest(
  plan: EvaluationPlan,
  request: JsonValue,
  observer?: EvaluationObserver,
): EvaluationResult {
  checkRequestShape(request);
  return new Evaluation(plan, request, observer).run();
}

/**
 * Evaluates a request that has already passed `requestShapeProblem` (a host that checks first).
 * A `tally` receives the number of rules that took part, which the selection already knows.
 */
export function evaluateCheckedRequest(
  plan: EvaluationPlan,
  request: JsonObject,
  tally?: EvaluationTally,
  observer?: EvaluationObserver,
): EvaluationResult {
  const evaluation = new Evaluation(plan, request, observer);
  if (tally !== undefined) tally.rules = evaluation.rulesTakingPart;
  return evaluation.run();
}

/** The fields of the finding a rule run per item gives for one item. */
function itemFields(rule: ValidationRule, index: number): string[] {
  return rule.fields.map((field) => `${rule.forEach!.pointer}/${index}${field}`);
}

interface Write {
  readonly value: JsonValue;
  readonly rule: PreparedRule;
}

type MessageChain = ReturnType<MessageCatalogs["chainFor"]>;

/** The state effect of one rule on one field, as it is reported. */
interface StateGroup {
  /** The effect's field and the rule (StateEffect.groupKey). */
  readonly key: string;
  readonly field: string;
  readonly rule: string;
  readonly set: JsonObject;
}

/** A state property a rule is about to set, kept until all of the rule's properties are known to fit. */
interface StagedState extends Write {
  readonly effect: StateEffect;
  readonly entry: StateProperty;
}

function objectOr(value: JsonValue | undefined, fallback: JsonObject | null): JsonObject | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : fallback;
}

class Evaluation {
  private readonly scope: Scope;
  private readonly working: WorkingData;
  private readonly selection: RuleSelection;
  private readonly resolutions: RequestResolutions;
  private readonly notApplying: RulesNotApplying | undefined;
  /** The state, validation and action rules to evaluate: the selection's, less those known not to apply. */
  private settled: SettledRules;
  private readonly entity: string;
  private readonly findings: Finding[] = [];
  private readonly effects: Effect[] = [];

  constructor(
    private readonly plan: EvaluationPlan,
    private readonly request: JsonObject,
    private readonly observer?: EvaluationObserver,
  ) {
    this.entity = request.entity as string;
    const actor = objectOr(request.actor, {})!;
    this.working = new WorkingData(objectOr(request.data, {}) as ValueObject);
    this.scope = new Scope(this.working.root, request.original ?? null, actor, objectOr(request.ctx, {}), plan.params);
    this.resolutions = new RequestResolutions(request.resolutions, actor);
    const trigger = plan.channel === "client" ? ((request.trigger as string | null | undefined) ?? null) : null;
    const selected = plan.select(this.entity, request.operation as string, trigger);
    const view = objectOr(request.view, null);
    this.selection = view === null ? selected : narrowedToView(selected, view);
    this.settled = this.selection;
    // An observer (an explanation, a coverage probe, and so a tracer) is told about every rule's
    // `when`: passing over rules would hide them from it, so watched evaluations evaluate all.
    this.notApplying =
      observer === undefined ? plan.rulesNotApplying(selected, this.entity, this.scope, this.working) : undefined;
  }

  get rulesTakingPart(): number {
    const selection = this.selection;
    return selection.compute.length + selection.state.length + selection.validation.length + selection.action.length;
  }

  run(): EvaluationResult {
    this.compute();
    if (this.notApplying !== undefined) this.settled = this.notApplying.settle(this.selection);
    this.state();
    this.validate();
    let decision: Decision = this.findings.some((finding) => finding.blocking) ? "deny" : "allow";
    let commands: Command[] = [];
    if (decision === "allow" && this.plan.channel === "server") {
      const actions = this.act();
      commands = actions.commands;
      if (actions.failed) decision = "deny";
    }
    const result: EvaluationResult = {
      ruleset: this.plan.id,
      version: this.plan.version,
      checksum: this.plan.checksum,
      decision,
      findings: this.findings,
      effects: this.effects,
      commands,
      blocking: false,
      resolution: "none",
    };
    summarize(this.findings, result);
    return result;
  }

  private applies(rule: PreparedRule): boolean {
    if (rule.when === undefined) return true;
    const holds = rule.when(this.scope, 0);
    // The label is built only when it is needed: this runs for every rule of every evaluation.
    const applies = typeof holds === "boolean" ? holds : expectBoolean(holds, `the 'when' of ${rule.id}`);
    this.observer?.whenDecided(rule, applies);
    return applies;
  }

  /** A rule that could not be evaluated: the fixed finding of section 8. */
  private failedClosed(rule: PreparedRule, error: unknown): void {
    const detail = failureDetail(error);
    this.observer?.ruleFailed(rule, detail);
    this.findings.push(failedClosedFinding(rule, detail));
  }

  /** A second write of a different value: an error unless the earlier, higher-priority rule wins. */
  private conflict(previous: PreparedRule, rule: PreparedRule, what: string): void {
    if (this.plan.conflictPolicy === "fail" || compare(previous.priority as number, rule.priority as number) === 0) {
      fail(`conflicting ${what} from ${previous.id}`);
    }
  }

  private compute(): void {
    const written = new Map<string, Write>();
    for (const rule of this.selection.compute) {
      if (this.notApplying?.skipsCompute(rule) === true) continue;
      this.observer?.ruleStarted(rule);
      try {
        this.computeRule(rule, written);
      } catch (error) {
        this.failedClosed(rule, error);
      }
    }
  }

  private computeRule(rule: ComputeRule, written: Map<string, Write>): void {
    if (!this.applies(rule)) return;
    for (const assignment of rule.assignments) {
      if (!assignment.always && assignment.read(this.working.root) !== null) continue;
      const value = toLeavingValue(assignment.value(this.scope, 0));
      const previous = written.get(assignment.field);
      if (previous) {
        if (!valuesEqual(previous.value, value)) this.conflict(previous.rule, rule, assignment.field);
        continue;
      }
      written.set(assignment.field, { value, rule });
      this.working.write(assignment, value);
      this.scope.data = this.working.root;
      this.effects.push({ type: "value", field: assignment.field, value, rule: rule.id });
      this.observer?.ruleFired(rule);
    }
  }

  private state(): void {
    if (this.settled.state.length === 0) return;
    const state = new Map<string, Write>();
    // A group is one rule's effect on one field, so a rule's writes only ever join its own groups.
    const groups: StateGroup[] = [];
    for (const rule of this.settled.state) {
      this.observer?.ruleStarted(rule);
      try {
        this.stateRule(rule, state, groups);
      } catch (error) {
        this.failedClosed(rule, error);
      }
    }
    for (const group of groups)
      this.effects.push({ type: "state", field: group.field, set: group.set, rule: group.rule });
  }

  /** A state rule applies all of its properties, or none when one conflicts. */
  private stateRule(rule: StateRule, state: Map<string, Write>, groups: StateGroup[]): void {
    if (!this.applies(rule)) return;
    // A rule sets a few properties: lists find its own earlier ones faster than maps would.
    const staged: StagedState[] = [];
    for (const effect of rule.effects) {
      for (const entry of effect.set) {
        const previous = staged.find((write) => write.entry.key === entry.key) ?? state.get(entry.key);
        if (previous) {
          if (!valuesEqual(previous.value, entry.value))
            this.conflict(previous.rule, rule, `${entry.property} of ${effect.field}`);
          continue;
        }
        staged.push({ value: entry.value, rule, effect, entry });
      }
    }
    const firstOfRule = groups.length;
    for (const write of staged) {
      state.set(write.entry.key, write);
      let group: StateGroup | undefined;
      for (let i = firstOfRule; i < groups.length && group === undefined; i++)
        if (groups[i]!.key === write.effect.groupKey) group = groups[i];
      if (group === undefined) {
        group = { key: write.effect.groupKey, field: write.effect.field, rule: rule.id, set: {} };
        groups.push(group);
      }
      write.entry.store(group.set, write.value);
    }
    if (staged.length > 0) this.observer?.ruleFired(rule);
  }

  private validate(): void {
    const chain: MessageChain = this.plan.messages.chainFor(
      typeof this.request.locale === "string" ? this.request.locale : undefined,
    );
    for (const rule of this.settled.validation) {
      this.observer?.ruleStarted(rule);
      try {
        this.validationRule(rule, chain);
      } catch (error) {
        this.failedClosed(rule, error);
      }
    }
  }

  /** Whether a validation rule applies at the current place and its assertion does not hold. */
  private violated(rule: ValidationRule): boolean {
    if (!this.applies(rule)) return false;
    const holds = rule.assert(this.scope, 0);
    return holds === false || (holds !== true && !expectBoolean(holds, `the 'assert' of ${rule.id}`));
  }

  private validationRule(rule: ValidationRule, chain: MessageChain): void {
    const scope = this.scope;
    if (rule.typeName !== undefined) {
      try {
        const bound = this.plan.fieldsOfType(this.entity, rule.typeName);
        for (let index = 0; index < bound.length; index++) {
          const { pointer, read } = bound[index]!;
          scope.value = read(this.working.root);
          scope.field = pointer;
          if (this.observer?.iterationStarted(rule, pointer, index === bound.length - 1) === true)
            this.runAgainIfShown(rule, [pointer], chain);
          else if (this.violated(rule)) this.found(rule, this.finding(rule, [pointer], chain));
        }
      } finally {
        scope.value = null;
        scope.field = null;
      }
    } else if (rule.forEach !== undefined) {
      const list = rule.forEach.read(this.working.root);
      if (list === null) return;
      if (!Array.isArray(list)) fail(`forEach ${rule.forEach.pointer} is not a list`);
      try {
        for (let index = 0; index < list.length; index++) {
          scope.item = list[index]!;
          if (
            this.observer?.iterationStarted(rule, `${rule.forEach.pointer}/${index}`, index === list.length - 1) ===
            true
          )
            this.runAgainIfShown(rule, itemFields(rule, index), chain);
          else if (this.violated(rule)) this.found(rule, this.finding(rule, itemFields(rule, index), chain));
        }
      } finally {
        scope.item = null;
      }
    } else {
      if (this.violated(rule)) this.found(rule, this.finding(rule, [...rule.fields], chain));
    }
  }

  /**
   * An item or field the observer did not trace (EvaluationObserver.iterationStarted) is run again,
   * traced, when it fires or fails, before its finding: evaluation is pure, so the second run gives
   * the same values and raises the same error (the first run's is the one raised).
   */
  private runAgainIfShown(rule: ValidationRule, fields: string[], chain: MessageChain): void {
    const again = (): void => {
      this.observer!.retracing?.(rule);
      try {
        if (this.violated(rule)) this.finding(rule, fields, chain);
      } catch {}
    };
    let finding: Finding | undefined;
    try {
      if (this.violated(rule)) finding = this.finding(rule, fields, chain);
    } catch (error) {
      again();
      throw error;
    }
    if (finding === undefined) return;
    again();
    this.found(rule, finding);
  }

  private found(rule: ValidationRule, finding: Finding): void {
    this.findings.push(finding);
    this.observer?.ruleFired(rule);
  }

  private finding(rule: ValidationRule, fields: string[], chain: MessageChain): Finding {
    const args: JsonObject = {};
    for (const [node, store] of rule.args) store(args, toLeavingValue(node(this.scope, 0)));
    const { status, resolution } = this.resolutions.outcome(rule);
    const acceptance = rule.acceptance;
    const finding: Finding = {
      rule: rule.id,
      code: rule.code,
      severity: rule.severity,
      message: MessageCatalogs.message(chain, rule.messageKey, args),
      fields,
      blocking: status === "open" && (rule.severity === "error" || resolution === "acknowledge"),
      status,
      resolution,
      source: rule.origin,
      args,
    };
    if (rule.location) finding.location = { ...rule.location };
    if (acceptance && acceptance.roles.length > 0) finding.acceptableBy = [...acceptance.roles];
    return finding;
  }

  /** Commands of the allowed server evaluation; an error in any action drops them all and denies. */
  private act(): { commands: Command[]; failed: boolean } {
    const commands: Command[] = [];
    for (const rule of this.settled.action) {
      this.observer?.ruleStarted(rule);
      try {
        this.actionRule(rule, commands);
      } catch (error) {
        this.failedClosed(rule, error);
        return { commands: [], failed: true };
      }
    }
    return { commands, failed: false };
  }

  private actionRule(rule: ActionRule, commands: Command[]): void {
    if (!this.applies(rule)) return;
    for (const command of rule.commands) {
      const idempotencyKey = command.keyParts.map((part) => renderText(toLeavingValue(part(this.scope, 0)))).join(":");
      const payload: JsonObject = Object.fromEntries(
        command.payload.map(([name, node]) => [name, toLeavingValue(node(this.scope, 0))]),
      );
      const emitted: Command = { name: command.name, type: command.type, rule: rule.id, idempotencyKey, payload };
      if (command.ref !== undefined) emitted.ref = command.ref;
      commands.push(emitted);
      this.observer?.ruleFired(rule);
    }
  }
}
