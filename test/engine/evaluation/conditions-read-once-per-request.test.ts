import { describe, expect, test } from "bun:test";
import { LoadedRuleset } from "../../../src/engine/bundle/loaded-ruleset.ts";
import { INDEX_THRESHOLDS, type IndexThresholds } from "../../../src/engine/evaluation/applicability-index.ts";
import { evaluateRequest } from "../../../src/engine/evaluation/evaluate-request.ts";
import type { JsonObject, JsonValue } from "../../../src/engine/value/json-value.ts";
import { and, eq, manifest, order, plansOf, rule, v, validation } from "./indexed-and-every-rule.ts";

/**
 * What makes rules that cannot apply cheap: a plan that indexes its rules reads what decides them
 * once per request, not once per rule; a plan that does not, and any evaluation an observer
 * watches (explanations, coverage), evaluates every rule's `when`. The data counts its reads.
 */

const RULES = 40;

/** The request's data with one member that counts how often it is read. */
function countingData(data: JsonObject, key: string, value: JsonValue): { data: JsonObject; reads: () => number } {
  let reads = 0;
  Object.defineProperty(data, key, {
    enumerable: true,
    get: () => {
      reads++;
      return value;
    },
  });
  return { data, reads: () => reads };
}

/** Reads of the counted member by one evaluation, the request's shape check (one read) included, after a first to warm up. */
function readsBy(
  source: JsonObject,
  ruleIndex: IndexThresholds | false,
  key: string,
  value: JsonValue,
  data: JsonObject = {},
): { reads: number; findings: number } {
  const plan = plansOf(source, ruleIndex);
  const warm = countingData({ ...data }, key, value);
  evaluateRequest(plan, order(warm.data));
  const counted = countingData({ ...data }, key, value);
  const result = evaluateRequest(plan, order(counted.data));
  return { reads: counted.reads(), findings: result.findings.length };
}

const copies = (make: (copy: number) => JsonObject): JsonObject[] => Array.from({ length: RULES }, (_, i) => make(i));

describe("a variable that decides many rules", () => {
  const cases: { name: string; source: JsonObject; key: string; value: JsonValue; data?: JsonObject }[] = [
    {
      name: "equalities with different literals",
      source: manifest(copies((i) => validation(`v.${i}`, { when: eq(v("data.country"), `C${i}`) }))),
      key: "country",
      value: "DE",
    },
    {
      name: "compute rules' equalities",
      source: manifest(
        copies((i) =>
          rule(`c.${i}`, "compute", { when: eq(v("data.country"), `C${i}`), assign: [{ field: "/x", value: i }] }),
        ),
      ),
      key: "country",
      value: "DE",
    },
    {
      name: "one condition many rules start with",
      source: manifest(
        copies((i) =>
          validation(`v.${i}`, { when: and({ op: "not", args: [{ op: "empty", args: [v("data.items")] }] }, i) }),
        ),
      ),
      key: "items",
      value: [],
    },
    {
      name: "the list of rules run per item",
      source: manifest(
        copies((i) => validation(`v.${i}`, { forEach: "/items", assert: { op: "gt", args: [v("item.n"), i] } })),
      ),
      key: "items",
      value: null,
    },
    {
      name: "a field bound to the type rules target",
      source: manifest(
        copies((i) =>
          validation(`v.${i}`, {
            target: { type: "Code" },
            when: { op: "exists", args: [v("value")] },
            assert: i > RULES,
          }),
        ),
        { fieldTypes: { Order: { "/code": "Code" } } },
      ),
      key: "code",
      value: null,
    },
  ];

  for (const { name, source, key, value, data } of cases) {
    test(`is read once per request when it decides ${name}`, () => {
      const indexed = readsBy(source, INDEX_THRESHOLDS, key, value, data);
      const everyRule = readsBy(source, false, key, value, data);
      expect(indexed.findings).toBe(everyRule.findings);
      expect(indexed.reads).toBeLessThanOrEqual(2);
      expect(everyRule.reads).toBeGreaterThanOrEqual(RULES);
    });
  }

  test("is read again by the compute phase after a write, not by each rule", () => {
    const source = manifest([
      rule("c.first", "compute", { priority: 9, assign: [{ field: "/y", value: 1 }] }),
      ...copies((i) =>
        rule(`c.${i}`, "compute", { when: eq(v("data.country"), `C${i}`), assign: [{ field: "/x", value: i }] }),
      ),
    ]);
    expect(readsBy(source, INDEX_THRESHOLDS, "country", "DE").reads).toBeLessThanOrEqual(3);
  });
});

describe("an evaluation an observer watches", () => {
  test("evaluates every rule's `when`, and its explanation lists each as `when-false`", () => {
    const source = manifest(copies((i) => validation(`v.${i}`, { when: eq(v("data.country"), `C${i}`) })));
    const ruleset = LoadedRuleset.fromManifest(source);
    ruleset.evaluate(order({ country: "DE" }));
    const counted = countingData({}, "country", "DE");
    const result = ruleset.evaluate(order(counted.data), undefined, { explain: "rules" });
    expect(counted.reads()).toBeGreaterThanOrEqual(RULES);
    expect(result.explanation!.rules.map((explained) => explained.status)).toEqual(
      copies(() => ({})).map(() => "when-false"),
    );
    const plain = countingData({}, "country", "DE");
    ruleset.evaluate(order(plain.data));
    expect(plain.reads()).toBeLessThan(RULES);
  });
});
