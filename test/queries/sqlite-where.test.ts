import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { valueAt } from "../../src/engine/plan/condition-holds.ts";
import type { ComparisonOperator, PlanCondition } from "../../src/engine/plan/plan-condition.ts";
import type { JsonValue } from "../../src/engine/value/json-value.ts";
import type { ColumnMapping } from "../../src/queries/column-mapping.ts";
import { sqlWhere } from "../../src/queries/sql-where.ts";
import { differentialCheck, showSql } from "./differential-check.ts";
import {
  conditionNodes,
  fuzzSeed,
  NUL_STRING,
  randomCondition,
  STRINGS,
  seededRandom,
  FUZZ_POINTERS,
} from "./random-conditions.ts";
import { dataText, randomRows, type ValueRestriction } from "./random-rows.ts";

/**
 * SQLite (bun:sqlite, in memory) against conditionHolds on seeded random conditions and rows: with
 * every pointer in the JSON column, and with some pointers in columns of their own (a REAL column,
 * a TEXT column that collates NOCASE, a boolean 0/1 column with an unsafe name, a column of no type
 * holding numbers and text).
 */
const SEED = fuzzSeed();
const CONDITIONS = 400;
const ROWS = 150;
const POINTERS = FUZZ_POINTERS;
const STRINGS_WITH_NUL = [...STRINGS, NUL_STRING];

const MAPPING: ColumnMapping = {
  columns: { "/n": "num", "/s": "str", "/a/b": 'x"; DROP TABLE t; --', "/m": "mixed" },
  columnTypes: { "/a/b": "boolean", "/n": "number" },
};
const TABLE = `CREATE TABLE t (id INTEGER PRIMARY KEY, data TEXT, num REAL, str TEXT COLLATE NOCASE, "x""; DROP TABLE t; --" INTEGER, mixed)`;

const database = new Database(":memory:");
afterAll(() => database.close());

/** The rows, their data as JSON text spelt variously and, when `mapped`, the values of the mapped pointers in their columns. */
function fill(rows: readonly JsonValue[], random: () => number, mapped: boolean): void {
  database.run("DROP TABLE IF EXISTS t");
  database.run(TABLE);
  const insert = database.prepare(`INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)`);
  rows.forEach((row, index) => {
    const at = (pointer: string) => (mapped ? ((valueAt(row, pointer) ?? null) as JsonValue) : null);
    const flag = at("/a/b");
    insert.run(
      index + 1,
      dataText(random, row),
      at("/n") as number | null,
      at("/s") as string | null,
      flag === null ? null : flag ? 1 : 0,
      at("/m") as number | string | null,
    );
  });
}

function evaluate(where: string, params: unknown[]) {
  const answers = database.prepare(`SELECT id, (${where}) AS holds FROM t ORDER BY id`).all(...(params as never[])) as {
    id: number;
    holds: unknown;
  }[];
  return answers.map(({ id, holds }) => ({ id, holds: holds === 1 ? true : holds === 0 ? false : (holds as null) }));
}

/** Two pointers into the JSON column that `eq` compares: SQLite cannot, so the translation refuses. */
function bothJsonEq(mapping: ColumnMapping) {
  const mapped = (pointer: string) => Object.hasOwn(mapping.columns ?? {}, pointer);
  return (condition: PlanCondition) =>
    conditionNodes(condition).some(
      (node) =>
        node.op === "eq" &&
        "pointer" in node.right &&
        node.left.pointer !== node.right.pointer &&
        !mapped(node.left.pointer) &&
        !mapped(node.right.pointer),
    );
}

const RUNS: { label: string; mapping: ColumnMapping; restrictions: Record<string, ValueRestriction> }[] = [
  { label: "every pointer in the JSON column", mapping: {}, restrictions: {} },
  {
    label: "some pointers in columns of their own",
    mapping: MAPPING,
    restrictions: { "/n": "number", "/s": "string", "/a/b": "boolean", "/m": "numberOrString" },
  },
];

for (const { label, mapping, restrictions } of RUNS) {
  test(`SQLite keeps exactly the rows conditionHolds accepts, ${label}`, async () => {
    const random = seededRandom(SEED);
    const rows = randomRows(random, ROWS, POINTERS, STRINGS_WITH_NUL, restrictions);
    fill(rows, random, mapping.columns !== undefined);
    const refused = bothJsonEq(mapping);
    // Few comparisons of two JSON pointers, so that most conditions run.
    const pointerPairs = (op: ComparisonOperator, left: string, right: string) =>
      !refused({ op, left: { pointer: left }, right: { pointer: right } }) || random() < 0.1;
    const conditions = Array.from({ length: CONDITIONS }, () =>
      randomCondition(random, { pointers: POINTERS, strings: STRINGS_WITH_NUL, pointerPairs }),
    );
    const outcome = await differentialCheck({
      label: `SQLite, ${label}, seed ${SEED} (QUERIES_FUZZ_SEED)`,
      rows,
      conditions,
      translate: (condition) => sqlWhere(condition, { dialect: "sqlite", ...mapping }),
      show: showSql,
      refusalExpected: refused,
      evaluate: async ({ where, params }) => evaluate(where, params),
    });
    expect(outcome.failures).toEqual([]);
    expect(outcome.checked).toBeGreaterThan(CONDITIONS * 0.8);
  });
}
