import type { EvaluationPlan } from "../evaluation/evaluation-plan.ts";
import { RequestResolutions } from "../evaluation/request-resolutions.ts";
import { narrowedToView } from "../evaluation/rule-selection.ts";
import { isJsonObject } from "../value/json-access.ts";
import type { JsonObject, JsonValue } from "../value/json-value.ts";
import {
  andBounds,
  type Bounds,
  isExact,
  NEVER,
  notBounds,
  orBounds,
  withNegationsOnLeaves,
} from "./condition-algebra.ts";
import type { PlanResult } from "./plan-result.ts";
import { PlanRequestError, readPlanRequest } from "./plan-request.ts";
import { ResidualExpressions } from "./residual-expression.ts";
import {
  actionOutcome,
  computeOutcome,
  isResidual,
  type RuleOutcome,
  stateConflicts,
  stateOutcome,
  validationOutcome,
  whenOf,
} from "./rule-outcomes.ts";

function objectOr(value: JsonValue | undefined, fallback: JsonObject): JsonObject {
  return isJsonObject(value) ? value : fallback;
}

/**
 * Plans a request against a channel's evaluation plan: partial evaluation of its rules with
 * `data` unknown (specification section 8's order: compute, state, validation, then the server's
 * actions). Pure, like evaluation. Throws PlanRequestError for a malformed request or an unknown
 * wanted rule.
 */
export function planRequest(plan: EvaluationPlan, request: JsonValue): PlanResult {
  const { entity, operation, want, evaluationRequest } = readPlanRequest(request);
  if (typeof want === "object" && !plan.manifestOrder.some((rule) => rule.id === want.rule))
    throw new PlanRequestError(`'want' names rule ${want.rule}, which ruleset ${plan.id} does not have`);
  const actor = objectOr(evaluationRequest.actor, {});
  // The plan's own functions and operators; expressions read once per plan are not worth compiling.
  const expressions = new ResidualExpressions(
    { ...plan.prepareContext, codeGeneration: false },
    {
      original: evaluationRequest.original ?? null,
      actor,
      ctx: objectOr(evaluationRequest.ctx, {}),
      params: plan.params,
    },
  );
  const trigger = plan.channel === "client" ? ((evaluationRequest.trigger as string | null | undefined) ?? null) : null;
  const selected = plan.select(entity, operation, trigger);
  const view = evaluationRequest.view;
  const selection = isJsonObject(view) ? narrowedToView(selected, view) : selected;
  const resolutions = new RequestResolutions(evaluationRequest.resolutions, actor);

  const outcomes: RuleOutcome[] = [];
  const written = new Set<string>();
  for (const rule of selection.compute) {
    const when = whenOf(expressions, rule.source);
    if (when.kind === "known" && when.value === false) continue;
    const fields = rule.assignments.map((assignment) => assignment.field);
    outcomes.push(
      computeOutcome(
        expressions,
        rule,
        when,
        fields.some((field) => written.has(field)),
      ),
    );
    for (const field of fields) written.add(field);
    expressions.mayWrite(fields);
  }
  const conflicts = stateConflicts(plan, selection.state);
  // Each state rule's `when` once: a rule's conflicts read the `when`s of the rules before it.
  const stateWhens = new Map(selection.state.map((rule) => [rule, whenOf(expressions, rule.source)]));
  const keysSet = new Set<string>();
  for (const rule of selection.state) {
    const keys = rule.effects.flatMap((effect) => effect.set.map((entry) => entry.key));
    outcomes.push(
      stateOutcome(
        rule,
        stateWhens.get(rule)!,
        conflicts.get(rule)!.map((earlier) => stateWhens.get(earlier)!),
        keys.some((key) => keysSet.has(key)),
      ),
    );
    for (const key of keys) keysSet.add(key);
  }
  for (const rule of selection.validation)
    outcomes.push(validationOutcome(expressions, plan, entity, rule, resolutions));
  const beforeActions = orBounds(...outcomes.map((outcome) => outcome.blocks));
  const actions = plan.channel === "server" ? selection.action.map((rule) => actionOutcome(expressions, rule)) : [];
  const denied = orBounds(beforeActions, ...actions.map((outcome) => outcome.blocks));
  // A command is in the result only when the evaluation is allowed, which every action's success is part of.
  const firing = (outcome: RuleOutcome): Bounds =>
    actions.includes(outcome) ? andBounds(notBounds(denied), outcome.fires) : outcome.fires;

  let wanted: Bounds;
  let relevant: RuleOutcome[] = [...outcomes, ...actions];
  if (want === "allow") wanted = notBounds(denied);
  else if (want === "deny") wanted = denied;
  else {
    const outcome = relevant.find((candidate) => candidate.rule === want.rule);
    wanted = outcome === undefined ? NEVER : firing(outcome);
    if (outcome !== undefined && !actions.includes(outcome) && !isResidual(outcome)) relevant = [outcome];
  }
  return planResult(plan, wanted, relevant);
}

function planResult(plan: EvaluationPlan, wanted: Bounds, outcomes: readonly RuleOutcome[]): PlanResult {
  const upper = withNegationsOnLeaves(wanted.upper);
  const exact = isExact(wanted);
  const result: PlanResult = {
    ruleset: plan.id,
    version: plan.version,
    checksum: plan.checksum,
    kind: upper === true ? "always" : upper === false ? "never" : "conditional",
    exact,
  };
  if (typeof upper !== "boolean") result.condition = upper;
  if (!exact) result.residualRules = [...new Set(outcomes.filter(isResidual).map((outcome) => outcome.rule))];
  return result;
}
