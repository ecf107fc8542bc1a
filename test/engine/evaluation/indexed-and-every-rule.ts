import { expect } from "bun:test";
import type { Channel } from "../../../src/engine/bundle/channel.ts";
import { evaluateRequest } from "../../../src/engine/evaluation/evaluate-request.ts";
import type { EvaluationResult } from "../../../src/engine/evaluation/evaluation-result.ts";
import { INDEX_THRESHOLDS, type IndexThresholds } from "../../../src/engine/evaluation/applicability-index.ts";
import { EvaluationPlan } from "../../../src/engine/evaluation/evaluation-plan.ts";
import { customOperatorsFrom } from "../../../src/engine/expression/custom-operators.ts";
import type { JsonObject, JsonValue } from "../../../src/engine/value/json-value.ts";
import { rule } from "../../support/order-rule.ts";

/**
 * For the tests of the applicability index (src/engine/evaluation/applicability-index.ts): small
 * manifests, and evaluation by a plan that indexes its rules next to one that evaluates every
 * selected rule's `when`, with code generation and with closures only.
 */

export { rule };

/** A validation rule that fires wherever it applies (its `assert` is false), with the data's `country` in its args. */
export const validation = (id: string, extra: JsonObject): JsonObject =>
  rule(id, "validation", {
    severity: "error",
    finding: { code: id.toUpperCase(), message: "m", args: { country: { var: "data.country" } } },
    assert: false,
    ...extra,
  });

export const eq = (a: JsonValue, b: JsonValue): JsonObject => ({ op: "eq", args: [a, b] });
export const and = (...args: JsonValue[]): JsonObject => ({ op: "and", args });
export const v = (path: string): JsonObject => ({ var: path });

export const manifest = (rules: JsonObject[], extra: JsonObject = {}): JsonObject => ({
  ruleCascade: "1.0.0",
  id: "t.index",
  version: "1.0.0",
  checksum: `sha256:${"0".repeat(64)}`,
  channel: "server",
  conflictPolicy: "priority",
  params: { limit: 10 },
  fieldTypes: {},
  functions: {},
  operators: [],
  messages: { en: { m: "m {country}" } },
  rules,
  ...extra,
});

/** Operators the tests' rules call: one that always fails. */
const operators = customOperatorsFrom({
  "x-fail": () => {
    throw new Error("x-fail always fails");
  },
});

export function plansOf(source: JsonObject, ruleIndex: IndexThresholds | false, codeGeneration = true): EvaluationPlan {
  const channel = (source.channel as Channel | undefined) ?? "server";
  return new EvaluationPlan(source, channel, operators, codeGeneration, undefined, ruleIndex);
}

/** Thresholds that index every rule an index can decide, however few: the tests' manifests are small. */
export const EVERY_RULE_INDEXED: IndexThresholds = { minimumRules: 1, minimumDecided: 1 };

/**
 * Evaluates each request with the index (the plan's thresholds, and every rule indexed) and
 * without it, both with code generation and closures only; expects the same results, and gives
 * those of every rule indexed, with code generation.
 */
export function sameAnswers(source: JsonObject, requests: readonly JsonObject[]): EvaluationResult[] {
  let answers: EvaluationResult[] = [];
  for (const codeGeneration of [true, false]) {
    const everyRule = plansOf(source, false, codeGeneration);
    const expected = requests.map((request) => evaluateRequest(everyRule, request));
    for (const thresholds of [INDEX_THRESHOLDS, EVERY_RULE_INDEXED]) {
      const indexed = plansOf(source, thresholds, codeGeneration);
      const results = requests.map((request, index) => {
        const result = evaluateRequest(indexed, request);
        expect({ request, result }).toEqual({ request, result: expected[index]! });
        return result;
      });
      if (codeGeneration && thresholds === EVERY_RULE_INDEXED) answers = results;
    }
  }
  return answers;
}

export const order = (data: JsonObject, extra: JsonObject = {}): JsonObject => ({
  entity: "Order",
  operation: "create",
  data,
  ...extra,
});
