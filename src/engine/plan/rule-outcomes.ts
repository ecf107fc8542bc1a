import { compare } from "../number/arithmetic.ts";
import type { RequestResolutions } from "../evaluation/request-resolutions.ts";
import type { ActionRule, ComputeRule, StateRule, ValidationRule } from "../evaluation/prepared-rule.ts";
import type { EvaluationPlan } from "../evaluation/evaluation-plan.ts";
import { isJsonObject, listAt, objectAt } from "../value/json-access.ts";
import type { JsonValue } from "../value/json-value.ts";
import { valuesEqual } from "../value/value-equality.ts";
import {
  and,
  andBounds,
  type Bounds,
  exactly,
  isExact,
  NEVER,
  not,
  notBounds,
  orBounds,
  UNKNOWN,
} from "./condition-algebra.ts";
import type { PlanCondition } from "./plan-condition.ts";
import type { ResidualExpressions } from "./residual-expression.ts";
import { failsWhen, known, type Residual, truthOf, valueFailsWhen } from "./residual-value.ts";

/**
 * What each kind of rule does to a decision (specification section 8), as conditions on the data:
 * when it blocks (a blocking finding, or a failure that fails closed) and when it fires.
 */
export interface RuleOutcome {
  readonly rule: string;
  /** When the rule makes the decision `deny`. */
  readonly blocks: Bounds;
  /** When it fires (a finding, a state or value effect, a command). */
  readonly fires: Bounds;
}

/** Whether an outcome could not be worked out exactly: the application evaluates that rule per row. */
export const isResidual = (outcome: RuleOutcome): boolean => !isExact(outcome.blocks) || !isExact(outcome.fires);

/** A rule's `when`: absent is true. */
export function whenOf(expressions: ResidualExpressions, source: JsonValue, field?: string): Residual {
  return isJsonObject(source) && Object.hasOwn(source, "when") ? expressions.of(source.when, field) : known(true);
}

/** When any of the value expressions fails once the rule applies. */
function anyFails(expressions: ResidualExpressions, values: readonly JsonValue[], field?: string): Bounds {
  return orBounds(...values.map((value) => valueFailsWhen(expressions.of(value, field))));
}

export function computeOutcome(
  expressions: ResidualExpressions,
  rule: ComputeRule,
  when: Residual,
  conflicts: boolean,
): RuleOutcome {
  const applies = truthOf(when).whenTrue;
  const values = listAt(rule.source.assign).map((entry) => objectAt(entry).value ?? null);
  // A second write of another value to a field fails unless priorities settle it: not followed.
  const failing = orBounds(anyFails(expressions, values), conflicts ? UNKNOWN : NEVER);
  return {
    rule: rule.id,
    blocks: orBounds(failsWhen(when), andBounds(applies, failing)),
    // A default-mode assignment writes only a field that is null, which earlier rules may have set.
    fires: { lower: false, upper: applies.upper },
  };
}

/** The state rules in evaluation order, each with the earlier rules a write of its would conflict with. */
export function stateConflicts(plan: EvaluationPlan, rules: readonly StateRule[]): Map<StateRule, StateRule[]> {
  const conflicts = new Map<StateRule, StateRule[]>();
  rules.forEach((rule, index) => {
    const earlier = rules
      .slice(0, index)
      .filter(
        (previous) =>
          (plan.conflictPolicy === "fail" || compare(previous.priority as number, rule.priority as number) === 0) &&
          previous.effects.some((a) =>
            a.set.some((x) =>
              rule.effects.some((b) => b.set.some((y) => x.key === y.key && !valuesEqual(x.value, y.value))),
            ),
          ),
      );
    // A rule that sets one property twice, to two values, conflicts with itself.
    const own = rule.effects.flatMap((effect) => effect.set);
    if (own.some((x, i) => own.slice(0, i).some((y) => x.key === y.key && !valuesEqual(x.value, y.value))))
      earlier.push(rule);
    conflicts.set(rule, earlier);
  });
  return conflicts;
}

/**
 * A state rule fails when its `when` fails, or when it applies after an earlier rule that set one
 * of its properties to another value applied (that rule's own failure denies as well).
 */
export function stateOutcome(
  rule: StateRule,
  when: Residual,
  earlierConflictingWhens: readonly Residual[],
  sharesKeys: boolean,
): RuleOutcome {
  const applies = truthOf(when).whenTrue;
  const conflicting = andBounds(
    applies,
    orBounds(...earlierConflictingWhens.map((earlier) => truthOf(earlier).whenTrue)),
  );
  return {
    rule: rule.id,
    blocks: orBounds(failsWhen(when), conflicting),
    // A property an earlier rule already set to the same value is not written again.
    fires: sharesKeys ? { lower: false, upper: applies.upper } : andBounds(applies, notBounds(conflicting)),
  };
}

/** Whether a finding of the rule blocks (its resolution as the request's resolutions make it). */
function findingBlocks(rule: ValidationRule, resolutions: RequestResolutions): boolean {
  const { status, resolution } = resolutions.outcome(rule);
  return status === "open" && (rule.severity === "error" || resolution === "acknowledge");
}

export function validationOutcome(
  expressions: ResidualExpressions,
  plan: EvaluationPlan,
  entity: string,
  rule: ValidationRule,
  resolutions: RequestResolutions,
): RuleOutcome {
  const blocking = findingBlocks(rule, resolutions);
  if (rule.forEach !== undefined) return perItemOutcome(rule);
  const args = Object.values(objectAt(objectAt(rule.source).finding).args ?? {});
  const once = (field?: string): { fails: Bounds; fires: Bounds } => {
    const when = whenOf(expressions, rule.source, field);
    const assert = expressions.of(rule.source.assert ?? null, field);
    const applies = truthOf(when).whenTrue;
    const violated = andBounds(applies, truthOf(assert).whenFalse);
    const argsFail = anyFails(expressions, args, field);
    const fails = orBounds(failsWhen(when), andBounds(applies, failsWhen(assert)), andBounds(violated, argsFail));
    return { fails, fires: andBounds(violated, notBounds(argsFail)) };
  };
  // A rule on typed fields runs per field in pointer order; a failure stops the fields after it.
  const places =
    rule.typeName === undefined
      ? [once()]
      : plan.fieldsOfType(entity, rule.typeName).map((field) => once(field.pointer));
  const fails = orBounds(...places.map((place) => place.fails));
  const fires = orBounds(
    ...places.map((place, i) =>
      andBounds(...places.slice(0, i).map((earlier) => notBounds(earlier.fails)), place.fires),
    ),
  );
  return { rule: rule.id, blocks: blocking ? orBounds(fails, fires) : fails, fires };
}

/**
 * A rule run per item of a list in the data: the tree cannot say anything of a list's items, so
 * only what the list itself decides is exact: a value that is not a list (nor null) fails, and
 * any item of a list may fail or fire (blocking or not, an item's failure blocks).
 */
function perItemOutcome(rule: ValidationRule): RuleOutcome {
  const pointer = rule.forEach!.pointer;
  const isList: PlanCondition = { op: "isType", pointer, type: "list" };
  const notAList = and(not({ op: "isNull", pointer }), not(isList));
  const someItem: Bounds = { lower: false, upper: isList };
  return { rule: rule.id, blocks: orBounds(exactly(notAList), someItem), fires: someItem };
}

/** An action rule fails (and the whole evaluation is denied) when its `when` or a command's expressions fail. */
export function actionOutcome(expressions: ResidualExpressions, rule: ActionRule): RuleOutcome {
  const when = whenOf(expressions, rule.source);
  const applies = truthOf(when).whenTrue;
  const values: JsonValue[] = [];
  for (const entry of listAt(rule.source.commands)) {
    const command = objectAt(entry);
    values.push(...listAt(command.idempotencyKey), ...Object.values(objectAt(command.payload)));
  }
  const failing = andBounds(applies, anyFails(expressions, values));
  return {
    rule: rule.id,
    blocks: orBounds(failsWhen(when), failing),
    fires: rule.commands.length === 0 ? NEVER : andBounds(applies, notBounds(failing)),
  };
}
