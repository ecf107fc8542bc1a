import { expect, test } from "bun:test";
import { LoadedRuleset } from "../../src/engine/bundle/loaded-ruleset.ts";
import type { JsonObject } from "../../src/engine/value/json-value.ts";
import { answerPlan } from "../../src/plans/plan-answer.ts";
import { PlanQueryOptionsError } from "../../src/plans/plan-query-options.ts";

/**
 * What a plan answer adds to the engine's plan: the WHERE clause of the dialect asked for, widened
 * (and the plan no longer exact) where SQL cannot say a node exactly, and the query members checked.
 */
function ruleset(assert: JsonObject): LoadedRuleset {
  return LoadedRuleset.fromManifest({
    ruleCascade: "1.0.0",
    id: "t.answer",
    version: "1.0.0",
    checksum: `sha256:${"0".repeat(64)}`,
    channel: "server",
    params: {},
    fieldTypes: {},
    functions: {},
    operators: [],
    messages: { en: { m: "m" } },
    rules: [
      {
        id: "r.code",
        kind: "validation",
        target: { entity: "E" },
        operations: ["o"],
        severity: "error",
        assert,
        finding: { code: "R", message: "m" },
      },
      {
        id: "r.other",
        kind: "validation",
        target: { entity: "E" },
        operations: ["o"],
        severity: "error",
        assert: { op: "exists", args: [{ var: "data.b" }] },
        finding: { code: "S", message: "m" },
      },
    ],
  });
}

test("a node PostgreSQL cannot say (text holding NUL) widens its clause: not exact, every rule left to evaluate", () => {
  const rules = ruleset({ op: "ne", args: [{ var: "data.code" }, "a\u0000b"] });
  const request = { entity: "E", operation: "o" };
  const onSqlite = answerPlan(rules, { ...request, dialect: "sqlite" });
  expect(onSqlite.exact).toBe(true);
  expect(onSqlite.sql!.params).toContain("a\u0000b");
  const onPostgres = answerPlan(rules, { ...request, dialect: "postgresql" });
  expect(onPostgres).toMatchObject({ kind: "conditional", exact: false, residualRules: ["r.code", "r.other"] });
  // What is left is the other rule's condition: the widened clause holds for every allowed row.
  expect(onPostgres.sql!.where).not.toContain("$2");
  expect(onPostgres.condition).toEqual(onSqlite.condition);
});

test("without a dialect there is no clause; a constant plan's clause is TRUE or FALSE", () => {
  const always = ruleset({ op: "eq", args: [1, 1] });
  expect(answerPlan(always, { entity: "E", operation: "o" }).sql).toBeUndefined();
  const none = answerPlan(always, { entity: "X", operation: "o", dialect: "sqlite" });
  expect(none).toMatchObject({ kind: "always", exact: true, sql: { where: "TRUE", params: [] } });
  const never = answerPlan(ruleset({ op: "eq", args: [1, 2] }), { entity: "E", operation: "o", dialect: "postgresql" });
  expect(never).toMatchObject({ kind: "never", exact: true, sql: { where: "FALSE", params: [] } });
});

test("columnTypes must name mapped pointers and known types", () => {
  const rules = ruleset({ op: "exists", args: [{ var: "data.code" }] });
  const request = { entity: "E", operation: "o", dialect: "sqlite" };
  expect(() => answerPlan(rules, { ...request, columnTypes: { "/code": "string" } })).toThrow(PlanQueryOptionsError);
  expect(() =>
    answerPlan(rules, { ...request, columns: { "/code": "code" }, columnTypes: { "/code": "date" } }),
  ).toThrow(PlanQueryOptionsError);
  const typed = answerPlan(rules, { ...request, columns: { "/code": "code" }, columnTypes: { "/code": "string" } });
  expect(typed.sql!.where).toContain('"code"');
});
