import { expect, test } from "bun:test";
import { seededRandom } from "../../support/seeded-random.ts";
import { LoadedRuleset } from "../../../src/engine/bundle/loaded-ruleset.ts";
import { conditionHolds } from "../../../src/engine/plan/condition-holds.ts";
import type { PlanResult } from "../../../src/engine/plan/plan-result.ts";
import type { JsonObject, JsonValue } from "../../../src/engine/value/json-value.ts";
import { withValueAt } from "../../support/plan-rows.ts";

/**
 * Plans of random rules against evaluation: rules whose `when` and `assert` are random trees of
 * every operator a plan follows (and some it does not), over a few data fields, params, the
 * actor and a function; rows with every kind of value at those fields. An exact plan accepts
 * exactly the rows evaluation allows (or denies); one that is not exact accepts all of them.
 */
const SEED = Number(process.env.PLAN_FUZZ_SEED ?? 20261128);
const POINTERS = ["a", "b", "c.d", "list.0"];
const VALUES: (JsonValue | undefined)[] = [
  undefined,
  null,
  0,
  1,
  2,
  -1,
  2.5,
  10,
  "",
  "x",
  "y",
  true,
  false,
  [],
  [1],
  {},
  { d: 1 },
];

function generator(next: () => number) {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const constant = (): JsonValue => pick([0, 1, 2, -1, 2.5, 10, "x", "", true, false, null]);
  const value = (depth: number): JsonValue => {
    const roll = next();
    if (roll < 0.45) return { var: `data.${pick(POINTERS)}` };
    if (roll < 0.6) return constant();
    if (roll < 0.7) return { var: pick(["params.limit", "actor.level", "ctx.missing"]) };
    if (roll < 0.8 && depth < 3) return { fn: "double", args: [value(depth + 1)] };
    if (roll < 0.9 && depth < 3) return { op: "add", args: [value(depth + 1), value(depth + 1)] };
    if (depth < 3) return { op: "if", args: [boolean(depth + 1), value(depth + 1), value(depth + 1)] };
    return constant();
  };
  const boolean = (depth: number): JsonValue => {
    const roll = next();
    if (depth >= 3 || roll < 0.08) return pick([true, false, { var: `data.${pick(POINTERS)}` }, "x"]);
    if (roll < 0.2)
      return {
        op: pick(["and", "or"]),
        args: [boolean(depth + 1), boolean(depth + 1), boolean(depth + 1)].slice(0, 1 + Math.floor(next() * 3)),
      };
    if (roll < 0.27) return { op: "not", args: [boolean(depth + 1)] };
    if (roll < 0.32) return { op: "if", args: [boolean(depth + 1), boolean(depth + 1), boolean(depth + 1)] };
    if (roll < 0.55)
      return { op: pick(["eq", "ne", "lt", "lte", "gt", "gte"]), args: [value(depth + 1), value(depth + 1)] };
    if (roll < 0.62) return { op: "between", args: [value(depth + 1), constant(), constant()] };
    if (roll < 0.72)
      return { op: "in", args: [value(depth + 1), pick([{ var: "params.allowed" }, { var: "data.list" }, "x"])] };
    if (roll < 0.8) return { op: pick(["exists", "empty"]), args: [value(depth + 1)] };
    if (roll < 0.86) return { fn: "positive", args: [value(depth + 1)] };
    if (roll < 0.92) return { op: "matches", args: [value(depth + 1), "^x"] };
    return { op: "all", args: [{ var: "data.list" }, { op: "gt", args: [{ var: "item" }, 0] }] };
  };
  return { boolean, value, pick };
}

function manifestWith(rules: JsonObject[]): JsonObject {
  return {
    ruleCascade: "1.0.0",
    id: "t.plan.fuzz",
    version: "1.0.0",
    checksum: `sha256:${"0".repeat(64)}`,
    channel: "server",
    conflictPolicy: "fail",
    params: { limit: 2, allowed: ["x", 1, null] },
    fieldTypes: {},
    functions: {
      double: { params: ["n"], body: { op: "mul", args: [{ var: "arg.n" }, 2] } },
      positive: { params: ["n"], body: { op: "gt", args: [{ var: "arg.n" }, 0] } },
    },
    operators: [],
    messages: { en: { m: "m" } },
    rules,
  };
}

function rows(next: () => number): JsonValue[] {
  const result: JsonValue[] = [{}];
  for (let i = 0; i < 60; i++) {
    let row: JsonValue = {};
    for (const path of POINTERS) {
      const value = VALUES[Math.floor(next() * VALUES.length)];
      if (path === "list.0" && value !== undefined) row = withValueAt(row, "/list", []);
      row = withValueAt(row, `/${path.replaceAll(".", "/")}`, value);
    }
    result.push(row);
  }
  return result;
}

test("plans of random rules agree with evaluation on random rows", () => {
  const next = seededRandom(SEED);
  const { boolean, pick } = generator(next);
  let exactPlans = 0;
  let conditional = 0;
  for (let round = 0; round < 300; round++) {
    const rules: JsonObject[] = [];
    const count = 1 + Math.floor(next() * 3);
    for (let i = 0; i < count; i++) {
      const rule: JsonObject = {
        id: `r${i}`,
        kind: "validation",
        target: { entity: "Order" },
        operations: ["create"],
        severity: pick(["error", "error", "warning", "info"]),
        assert: boolean(0),
        finding: {
          code: `R${i}`,
          message: "m",
          args: next() < 0.2 ? { v: { op: "add", args: [{ var: "data.a" }, 1] } } : {},
        },
        origin: "t",
      };
      if (next() < 0.6) rule.when = boolean(0);
      rules.push(rule);
    }
    const ruleset = LoadedRuleset.fromManifest(manifestWith(rules));
    const actor = { level: pick([1, 3, "x"]) };
    for (const want of ["allow", "deny", { rule: "r0" }] as const) {
      const plan: PlanResult = ruleset.plan({ entity: "Order", operation: "create", actor, want });
      if (plan.exact) exactPlans++;
      if (plan.kind === "conditional") conditional++;
      for (const row of rows(next)) {
        const result = ruleset.evaluate({ entity: "Order", operation: "create", actor, data: row });
        const wanted =
          typeof want === "string"
            ? result.decision === want
            : result.findings.some((finding) => finding.rule === want.rule && finding.code !== "RULE-EVALUATION-ERROR");
        const accepted =
          plan.kind === "always" || (plan.kind === "conditional" && conditionHolds(plan.condition!, row));
        const label = `seed ${SEED} round ${round} want ${JSON.stringify(want)}\nrules ${JSON.stringify(rules)}\nrow ${JSON.stringify(row)}\nplan ${JSON.stringify(plan)}`;
        if (plan.exact) expect(accepted, label).toBe(wanted);
        else if (wanted) expect(accepted, label).toBe(true);
      }
    }
  }
  // The generator reaches plans of both sorts, and conditions rather than constants.
  expect(exactPlans).toBeGreaterThan(150);
  expect(conditional).toBeGreaterThan(150);
});
