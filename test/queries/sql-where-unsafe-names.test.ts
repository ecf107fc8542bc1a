import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { pointerOf } from "../../src/engine/plan/data-pointer.ts";
import type { PlanCondition } from "../../src/engine/plan/plan-condition.ts";
import { PlanNotTranslatableError } from "../../src/queries/plan-not-translatable.ts";
import type { SqlDialect } from "../../src/queries/sql-fragment.ts";
import { sqlWhere } from "../../src/queries/sql-where.ts";
import { startTestPostgres, type TestPostgres } from "../support/test-postgres.ts";

/**
 * Names from outside, on real databases: column names are quoted identifiers, whatever they hold,
 * and keys of pointers are parameters, never SQL text: a key with quotes, dots, brackets or path
 * syntax reads that member and nothing else.
 */
const UNSAFE_COLUMN = 'x"; DROP TABLE t; --';
const UNSAFE_JSON_COLUMN = "data'); DROP TABLE t; --";
const UNSAFE_KEYS = [
  "NULL",
  "a,b",
  "{x}",
  " x ",
  'a"b',
  "a.b",
  "a[0]",
  "a'b",
  "a\\b",
  '\\"',
  "$",
  "*",
  "..",
  "[#-1]",
  "a b",
  "é",
  "\n",
  "",
  "~",
  "-1",
  "+0",
];

/** Per key: the row holding "hit" at it, one holding "hit" at a neighbour, one holding another value at it. */
function rowsFor(key: string): unknown[] {
  return [{ [key]: "hit" }, { other: "hit", a: { b: "hit" }, [`${key}x`]: "hit" }, { [key]: "miss" }, ["hit"]];
}

interface Table {
  /** Ids of rows of `data` (ids from 1) for which the WHERE holds, the column UNSAFE_COLUMN holding `column`. */
  matching(
    data: readonly unknown[],
    column: readonly (number | null)[],
    where: string,
    params: unknown[],
  ): Promise<number[]>;
}

function sqliteTable(): Table {
  const database = new Database(":memory:");
  return {
    async matching(data, column, where, params) {
      database.run("DROP TABLE IF EXISTS t");
      database.run(
        `CREATE TABLE t (id INTEGER PRIMARY KEY, "data'); DROP TABLE t; --" TEXT, "x""; DROP TABLE t; --" REAL)`,
      );
      data.forEach((row, index) =>
        database.run("INSERT INTO t VALUES (?, ?, ?)", [index + 1, JSON.stringify(row), column[index] ?? null]),
      );
      const rows = database.prepare(`SELECT id FROM t WHERE ${where} ORDER BY id`).all(...(params as never[])) as {
        id: number;
      }[];
      return rows.map((row) => row.id);
    },
  };
}

function postgresTable(postgres: () => TestPostgres): Table {
  return {
    async matching(data, column, where, params) {
      const sql = postgres().sql;
      await sql.unsafe("DROP TABLE IF EXISTS t");
      await sql.unsafe(
        `CREATE TABLE t (id int PRIMARY KEY, "data'); DROP TABLE t; --" jsonb, "x""; DROP TABLE t; --" numeric)`,
      );
      for (const [index, row] of data.entries())
        await sql.unsafe("INSERT INTO t VALUES ($1, $2::text::jsonb, $3::numeric)", [
          index + 1,
          JSON.stringify(row),
          column[index] ?? null,
        ]);
      const rows = (await sql.unsafe(`SELECT id FROM t WHERE ${where} ORDER BY id`, params)) as { id: number }[];
      return rows.map((row) => row.id);
    },
  };
}

function translated(condition: PlanCondition, dialect: SqlDialect, columns: Record<string, string> = {}) {
  const text = sqlWhere(condition, { dialect, columns, jsonColumn: UNSAFE_JSON_COLUMN });
  if (text instanceof PlanNotTranslatableError) throw text;
  return text;
}

let postgres: TestPostgres | undefined;
beforeAll(async () => {
  postgres = await startTestPostgres();
});
afterAll(() => postgres?.stop());

for (const [dialect, table] of [
  ["sqlite", sqliteTable()],
  ["postgresql", postgresTable(() => postgres!)],
] as const) {
  describe(dialect, () => {
    test("a column named with quotes and SQL is one quoted identifier, and works", async () => {
      const condition: PlanCondition = { op: "gte", left: { pointer: "/amount" }, right: { value: 10 } };
      const text = translated(condition, dialect, { "/amount": UNSAFE_COLUMN });
      expect(text.where).toContain('"x""; DROP TABLE t; --"');
      expect(await table.matching([{}, {}, {}], [5, 10, null], text.where, text.params)).toEqual([2]);
    });

    test("a JSON column named with quotes and SQL is one quoted identifier, and works", async () => {
      const condition: PlanCondition = { op: "eq", left: { pointer: "/a/b" }, right: { value: "hit" } };
      const text = translated(condition, dialect);
      expect(text.where).toContain(`"data'); DROP TABLE t; --"`);
      expect(await table.matching(rowsFor("k"), [], text.where, text.params)).toEqual([2]);
    });

    for (const key of UNSAFE_KEYS) {
      test(`a key ${JSON.stringify(key)} reads that member only, at the top and below`, async () => {
        for (const keys of [[key], ["a", key]]) {
          const condition: PlanCondition = { op: "eq", left: { pointer: pointerOf(keys) }, right: { value: "hit" } };
          const text = translated(condition, dialect);
          const data = rowsFor(key).map((row) => (keys.length === 1 ? row : { a: row }));
          expect(await table.matching(data, [], text.where, text.params)).toEqual([1]);
        }
      });
    }
  });
}
