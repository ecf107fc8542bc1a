import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { EvaluationResult } from "../../src/engine/evaluation/evaluation-result.ts";
import type { JsonValue } from "../../src/engine/value/json-value.ts";
import { answerPlan, type PlanAnswer } from "../../src/plans/plan-answer.ts";
import { goldenPlanFiles } from "../support/golden-plan-cases.ts";
import { planRows } from "../support/plan-rows.ts";
import { startTestPostgres, type TestPostgres } from "../support/test-postgres.ts";

/**
 * Plans as queries on real databases, for every golden evaluation case: the case's request
 * without its data, planned for `allow` and `deny` with a WHERE clause, run over rows made from
 * the case's data (every kind of value at every field the plan or the data names) in SQLite and
 * PostgreSQL, with everything in the JSON column `data`. The rows returned are exactly the rows
 * whose evaluation gives what was wanted when the plan is exact, and include them all otherwise.
 */

let postgres: TestPostgres;
let batch = 0;
beforeAll(async () => {
  postgres = await startTestPostgres();
  await postgres.sql.unsafe("create table rows_ (batch integer not null, id integer not null, data jsonb not null)");
});
afterAll(() => postgres?.stop());

function sqliteSelected(rows: readonly JsonValue[], answer: PlanAnswer): number[] {
  const db = new Database(":memory:");
  db.run("create table rows_ (id integer primary key, data text not null)");
  const insert = db.prepare("insert into rows_ (id, data) values (?, ?)");
  for (const [id, row] of rows.entries()) insert.run(id, JSON.stringify(row));
  const selected = db
    .query(`select id from rows_ where ${answer.sql!.where} order by id`)
    .all(...(answer.sql!.params as never[])) as { id: number }[];
  db.close();
  return selected.map((row) => row.id);
}

async function postgresSelected(rows: readonly JsonValue[], answer: PlanAnswer): Promise<number[]> {
  const key = ++batch;
  const values = rows.map((_, id) => `(${key}, ${id}, $${id + 1}::text::jsonb)`).join(", ");
  await postgres.sql.unsafe(
    `insert into rows_ (batch, id, data) values ${values}`,
    rows.map((row) => JSON.stringify(row)),
  );
  // The batch is a number of the test's own; the clause's parameters are the plan's.
  const selected = (await postgres.sql.unsafe(
    `select id from rows_ where batch = ${key} and (${answer.sql!.where}) order by id`,
    answer.sql!.params,
  )) as { id: number }[];
  return selected.map((row) => row.id);
}

describe("on SQLite and PostgreSQL, a plan's WHERE clause returns the rows evaluation gives what was wanted", () => {
  for (const { name, ruleset: load, cases } of goldenPlanFiles()) {
    test(name, async () => {
      const ruleset = load();
      let compared = 0;
      for (const { name: caseName, channel, withoutData, data } of cases) {
        for (const want of ["allow", "deny"] as const) {
          let sqlite: PlanAnswer;
          let postgresql: PlanAnswer;
          try {
            sqlite = answerPlan(ruleset, { ...withoutData, want, dialect: "sqlite" }, channel);
            postgresql = answerPlan(ruleset, { ...withoutData, want, dialect: "postgresql" }, channel);
          } catch {
            continue; // Refused as evaluation refuses it (plan-against-evaluation.test.ts holds that).
          }
          const rows: JsonValue[] = [];
          const wanted: number[] = [];
          for (const row of planRows(data ?? {}, sqlite.condition, 60)) {
            let result: EvaluationResult;
            try {
              result = ruleset.evaluate({ ...withoutData, data: row } as JsonValue, channel);
            } catch {
              continue;
            }
            if (result.decision === want) wanted.push(rows.length);
            rows.push(row);
          }
          const label = `${caseName}, want ${want}`;
          for (const [answer, selected] of [
            [sqlite, sqliteSelected(rows, sqlite)],
            [postgresql, await postgresSelected(rows, postgresql)],
          ] as const) {
            if (answer.exact) expect(selected, `${label}: ${answer.sql!.where}`).toEqual(wanted);
            else
              expect(
                wanted.filter((id) => !selected.includes(id)),
                `${label}: ${answer.sql!.where}`,
              ).toEqual([]);
          }
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(0);
    });
  }
});
