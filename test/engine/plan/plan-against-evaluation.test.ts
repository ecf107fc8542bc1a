import { describe, expect, test } from "bun:test";
import { conditionHolds } from "../../../src/engine/plan/condition-holds.ts";
import type { PlanWant } from "../../../src/engine/plan/plan-request.ts";
import type { PlanResult } from "../../../src/engine/plan/plan-result.ts";
import type { EvaluationResult } from "../../../src/engine/evaluation/evaluation-result.ts";
import type { JsonValue } from "../../../src/engine/value/json-value.ts";
import { goldenPlanFiles } from "../../support/golden-plan-cases.ts";
import { planRows } from "../../support/plan-rows.ts";

/**
 * Plans against evaluation, on every golden evaluation case: for each case's request without its
 * data, the rows its plan's condition accepts are exactly the rows whose evaluation gives what was
 * wanted (an exact plan), or include them all (a plan that is not exact).
 */

function gives(result: EvaluationResult, want: PlanWant): boolean {
  if (want === "allow" || want === "deny") return result.decision === want;
  const rule = want.rule;
  return (
    result.findings.some((finding) => finding.rule === rule && finding.code !== "RULE-EVALUATION-ERROR") ||
    result.effects.some((effect) => effect.rule === rule) ||
    result.commands.some((command) => command.rule === rule)
  );
}

function accepts(plan: PlanResult, row: JsonValue): boolean {
  if (plan.kind === "always") return true;
  if (plan.kind === "never") return false;
  return conditionHolds(plan.condition!, row);
}

describe("a plan's condition holds for exactly the rows whose evaluation gives what was wanted", () => {
  for (const { name, ruleset: load, cases } of goldenPlanFiles()) {
    test(name, () => {
      const ruleset = load();
      let compared = 0;
      for (const { name: caseName, channel, withoutData, data } of cases) {
        let ruleIds: string[];
        try {
          ruleIds = ruleset.evaluationPlan(channel).manifestOrder.map((rule) => rule.id);
        } catch {
          // A channel the ruleset does not have: planning refuses it as evaluation does.
          expect(() => ruleset.plan(withoutData as JsonValue, channel)).toThrow();
          continue;
        }
        const wants: PlanWant[] = ["allow", "deny", ...ruleIds.map((rule) => ({ rule }))];
        for (const want of wants) {
          let plan: PlanResult;
          try {
            plan = ruleset.plan({ ...withoutData, want } as JsonValue, channel);
          } catch {
            // Only requests evaluation refuses too are refused.
            expect(() => ruleset.evaluate({ ...withoutData, data: {} } as JsonValue, channel)).toThrow();
            continue;
          }
          for (const row of planRows(data ?? {}, plan.condition, 120)) {
            let result: EvaluationResult;
            try {
              result = ruleset.evaluate({ ...withoutData, data: row } as JsonValue, channel);
            } catch {
              // Data that is not an object is refused for its shape, not evaluated.
              continue;
            }
            const wanted = gives(result, want);
            const accepted = accepts(plan, row);
            const label = `${caseName}, want ${JSON.stringify(want)}, data ${JSON.stringify(row)}: plan ${JSON.stringify(plan)}`;
            if (plan.exact) expect(accepted, label).toBe(wanted);
            else if (wanted) expect(accepted, label).toBe(true);
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(0);
    });
  }
});
