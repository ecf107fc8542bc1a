import type { Channel } from "../bundle/channel.ts";
import type { LoadedRuleset } from "../bundle/loaded-ruleset.ts";
import { evaluateCheckedRequest } from "../evaluation/evaluate-request.ts";
import { EvaluationPlan } from "../evaluation/evaluation-plan.ts";
import type { EvaluationResult } from "../evaluation/evaluation-result.ts";
import { checkRequestShape } from "../evaluation/request-shape.ts";
import type { CustomOperators } from "../expression/custom-operators.ts";
import { ExplanationRecorder } from "../explanation/explanation-recorder.ts";
import type { RuleExplanation } from "../explanation/explanation.ts";
import type { JsonValue } from "../value/json-value.ts";
import { BranchTrace } from "./branch-trace.ts";
import type { NodeTally } from "./node-tally.ts";

/** One test's evaluation under a probe: the result, and what each rule of the manifest did. */
export interface ProbedEvaluation {
  readonly result: EvaluationResult;
  readonly rules: readonly RuleExplanation[];
}

/**
 * Evaluates the golden tests of one ruleset for coverage: a plan per channel whose rule
 * expressions count what they give (BranchTrace), watched like a `rules` explanation so that
 * each rule's status is known. The results are those of a plain evaluation.
 */
export class CoverageProbe {
  private readonly plans = new Map<Channel, { plan: EvaluationPlan; trace: BranchTrace }>();
  /** The tests evaluated so far: each is counted once per node, whatever its items. */
  private tests = 0;

  constructor(
    private readonly ruleset: LoadedRuleset,
    private readonly operators: CustomOperators,
  ) {}

  /** One test's evaluation; throws RequestShapeError for a malformed request, like LoadedRuleset.evaluate. */
  evaluate(request: JsonValue, channel: Channel): ProbedEvaluation {
    checkRequestShape(request);
    const { plan, trace } = this.planFor(this.ruleset.resolveChannel(channel));
    trace.test = ++this.tests;
    const recorder = new ExplanationRecorder(plan, "rules", undefined);
    const result = evaluateCheckedRequest(plan, request, undefined, recorder);
    return { result, rules: recorder.explanation(request, result).rules };
  }

  /** What the tests did to a node of this channel's manifest; undefined when no test ran on the channel. */
  tallyOf(channel: Channel, expression: unknown): NodeTally | undefined {
    return this.plans.get(channel)?.trace.tallyOf(expression);
  }

  private planFor(channel: Channel): { plan: EvaluationPlan; trace: BranchTrace } {
    let probed = this.plans.get(channel);
    if (probed === undefined) {
      const trace = new BranchTrace();
      this.plans.set(
        channel,
        (probed = {
          plan: new EvaluationPlan(this.ruleset.manifest(channel), channel, this.operators, true, trace),
          trace,
        }),
      );
    }
    return probed;
  }
}
