import { afterAll, beforeAll, expect, test } from "bun:test";
import { valueAt } from "../../src/engine/plan/condition-holds.ts";
import type { JsonValue } from "../../src/engine/value/json-value.ts";
import type { ColumnMapping } from "../../src/queries/column-mapping.ts";
import { sqlWhere } from "../../src/queries/sql-where.ts";
import { startTestPostgres, type TestPostgres } from "../support/test-postgres.ts";
import { differentialCheck, showSql } from "./differential-check.ts";
import { fuzzSeed, randomCondition, STRINGS, seededRandom, FUZZ_POINTERS } from "./random-conditions.ts";
import { dataText, randomRows, type ValueRestriction } from "./random-rows.ts";

/**
 * PostgreSQL (a test server of its own) against conditionHolds on seeded random conditions and
 * rows: every pointer in the jsonb column; some in columns of their own (numeric, double
 * precision, text under a case-blind collation, and boolean under an unsafe name) declared in
 * `columnTypes`; and the same columns undeclared, read through to_jsonb.
 */
const SEED = fuzzSeed();
const CONDITIONS = 400;
const ROWS = 150;
// PostgreSQL also reads " 1" as a list index, which evaluation does not.
const POINTERS = [...FUZZ_POINTERS, "/items/ 1"];

const COLUMNS = { "/n": "num", "/m": "dbl", "/s": "str", "/a/b": 'x"; DROP TABLE t; --' };
const RESTRICTIONS: Record<string, ValueRestriction> = {
  "/n": "number",
  "/m": "number",
  "/s": "string",
  "/a/b": "boolean",
};
// The text column compares case-blind, so that only an explicit binary comparison is exact.
const COLLATION =
  "CREATE COLLATION IF NOT EXISTS case_blind (provider = icu, locale = 'und-u-ks-level2', deterministic = false)";
const TABLE = `CREATE TABLE t (id int PRIMARY KEY, data jsonb, num numeric, dbl double precision, str text COLLATE case_blind, "x""; DROP TABLE t; --" boolean)`;

let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startTestPostgres();
});
afterAll(() => postgres?.stop());

/** The rows, their data as JSON text spelt variously and, when `mapped`, the mapped pointers' values in their columns (numbers as decimal text). */
async function fill(rows: readonly JsonValue[], random: () => number, mapped: boolean): Promise<void> {
  await postgres.sql.unsafe("DROP TABLE IF EXISTS t");
  await postgres.sql.unsafe(COLLATION);
  await postgres.sql.unsafe(TABLE);
  for (const [index, row] of rows.entries()) {
    const at = (pointer: string) => (mapped ? (valueAt(row, pointer) ?? null) : null);
    const decimal = (value: unknown) => (value === null ? null : String(value));
    await postgres.sql.unsafe(
      "INSERT INTO t VALUES ($1, $2::text::jsonb, $3::numeric, $4::float8, $5::text, $6::boolean)",
      [index + 1, dataText(random, row), decimal(at("/n")), decimal(at("/m")), at("/s"), at("/a/b")],
    );
  }
}

for (const [label, mapping] of [
  ["every pointer in the jsonb column", {}],
  [
    "some pointers in typed columns",
    { columns: COLUMNS, columnTypes: { "/n": "number", "/m": "number", "/s": "string", "/a/b": "boolean" } },
  ],
  ["some pointers in columns of no declared type", { columns: COLUMNS }],
] as [string, ColumnMapping][]) {
  test(`PostgreSQL keeps exactly the rows conditionHolds accepts, ${label}`, async () => {
    const random = seededRandom(SEED);
    const mapped = mapping.columns !== undefined;
    const rows = randomRows(random, ROWS, POINTERS, STRINGS, mapped ? RESTRICTIONS : {});
    await fill(rows, random, mapped);
    const conditions = Array.from({ length: CONDITIONS }, () =>
      randomCondition(random, { pointers: POINTERS, strings: STRINGS }),
    );
    const outcome = await differentialCheck({
      label: `PostgreSQL, ${label}, seed ${SEED} (QUERIES_FUZZ_SEED)`,
      rows,
      conditions,
      translate: (condition) => sqlWhere(condition, { dialect: "postgresql", ...mapping }),
      show: showSql,
      refusalExpected: () => false,
      evaluate: async ({ where, params }) =>
        (await postgres.sql.unsafe(`SELECT id, (${where}) AS holds FROM t ORDER BY id`, params)) as {
          id: number;
          holds: boolean | null;
        }[],
    });
    expect(outcome.failures).toEqual([]);
    expect(outcome.checked).toBe(CONDITIONS);
  });
}
