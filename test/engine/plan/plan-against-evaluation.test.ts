import { describe, expect, test } from "bun:test";
import { LoadedRuleset } from "../../../src/engine/bundle/loaded-ruleset.ts";
import type { Channel } from "../../../src/engine/bundle/channel.ts";
import { conditionHolds } from "../../../src/engine/plan/condition-holds.ts";
import type { PlanWant } from "../../../src/engine/plan/plan-request.ts";
import type { PlanResult } from "../../../src/engine/plan/plan-result.ts";
import type { EvaluationResult } from "../../../src/engine/evaluation/evaluation-result.ts";
import type { JsonObject, JsonValue } from "../../../src/engine/value/json-value.ts";
import { conformanceOperators } from "../../../src/engine/conformance-operators.ts";
import { customOperatorsFrom } from "../../../src/engine/expression/custom-operators.ts";
import { goldenJsonFiles } from "../../support/golden-files.ts";
import { planRows } from "../../support/plan-rows.ts";

/**
 * Plans against evaluation, on every golden evaluation case: for each case's request without its
 * data, the rows its plan's condition accepts are exactly the rows whose evaluation gives what was
 * wanted (an exact plan), or include them all (a plan that is not exact).
 */
interface EvaluationFile {
  bundle?: JsonValue;
  manifest?: JsonValue;
  cases: { name: string; channel?: Channel; request: unknown }[];
}

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

const files = goldenJsonFiles("evaluations").map((file) => ({
  name: file.name,
  content: file.content as EvaluationFile,
}));

describe("a plan's condition holds for exactly the rows whose evaluation gives what was wanted", () => {
  for (const { name, content } of files) {
    const document = content.bundle ?? content.manifest;
    if (document === undefined) continue;
    test(name, () => {
      const operators = customOperatorsFrom(conformanceOperators);
      const ruleset =
        content.bundle !== undefined
          ? LoadedRuleset.fromBundle(document, operators)
          : LoadedRuleset.fromManifest(document, operators);
      let compared = 0;
      for (const c of content.cases) {
        const request = c.request as JsonObject;
        if (typeof request !== "object" || request === null || typeof request.entity !== "string") continue;
        if (typeof request.operation !== "string") continue;
        const { data, ...withoutData } = request;
        let ruleIds: string[];
        try {
          ruleIds = ruleset.evaluationPlan(c.channel).manifestOrder.map((rule) => rule.id);
        } catch {
          // A channel the ruleset does not have: planning refuses it as evaluation does.
          expect(() => ruleset.plan(withoutData as JsonValue, c.channel)).toThrow();
          continue;
        }
        const wants: PlanWant[] = ["allow", "deny", ...ruleIds.map((rule) => ({ rule }))];
        for (const want of wants) {
          let plan: PlanResult;
          try {
            plan = ruleset.plan({ ...withoutData, want } as JsonValue, c.channel);
          } catch {
            // Only requests evaluation refuses too are refused.
            expect(() => ruleset.evaluate({ ...withoutData, data: {} } as JsonValue, c.channel)).toThrow();
            continue;
          }
          for (const row of planRows(data ?? {}, plan.condition, 120)) {
            let result: EvaluationResult;
            try {
              result = ruleset.evaluate({ ...withoutData, data: row } as JsonValue, c.channel);
            } catch {
              // Data that is not an object is refused for its shape, not evaluated.
              continue;
            }
            const wanted = gives(result, want);
            const accepted = accepts(plan, row);
            const label = `${c.name}, want ${JSON.stringify(want)}, data ${JSON.stringify(row)}: plan ${JSON.stringify(plan)}`;
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
