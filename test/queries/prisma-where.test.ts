import { describe, expect, test } from "bun:test";
import { valueAt } from "../../src/engine/plan/condition-holds.ts";
import type { PlanCondition } from "../../src/engine/plan/plan-condition.ts";
import type { ColumnType } from "../../src/queries/column-mapping.ts";
import { PlanNotTranslatableError } from "../../src/queries/plan-not-translatable.ts";
import { type PrismaWhereOptions, prismaWhere } from "../../src/queries/prisma-where.ts";
import { differentialCheck } from "./differential-check.ts";
import { type PrismaRow, prismaHolds } from "./prisma-where-interpreter.ts";
import { fuzzSeed, NUL_STRING, randomCondition, STRINGS, seededRandom } from "./random-conditions.ts";
import { randomRows } from "./random-rows.ts";

/**
 * Prisma `where` objects: their shape, and their meaning under an interpreter of Prisma's
 * documented semantics (prisma-where-interpreter.ts) against conditionHolds, fuzzed.
 */
function where(condition: PlanCondition, options: PrismaWhereOptions) {
  const result = prismaWhere(condition, options);
  if (result instanceof PlanNotTranslatableError) throw result;
  return result;
}

const TYPED: PrismaWhereOptions = {
  columns: { "/n": "amount", "/s": "name", "/f": "active" },
  columnTypes: { "/n": "number", "/s": "string", "/f": "boolean" },
};
const lt5: PlanCondition = { op: "lt", left: { pointer: "/n" }, right: { value: 5 } };
const isA: PlanCondition = { op: "eq", left: { pointer: "/s" }, right: { value: "a" } };

describe("shapes", () => {
  test("comparisons are field filters; and/or are AND/OR, nested ones flattened", () => {
    expect(where(lt5, TYPED)).toEqual({ amount: { lt: 5 } });
    expect(
      where({ op: "and", args: [lt5, { op: "and", args: [isA, { op: "isNull", pointer: "/f" }] }] }, TYPED),
    ).toEqual({
      AND: [{ amount: { lt: 5 } }, { name: { equals: "a" } }, { active: null }],
    });
    expect(where({ op: "in", pointer: "/s", values: ["a", "b"] }, TYPED)).toEqual({ name: { in: ["a", "b"] } });
    expect(where({ op: "isType", pointer: "/n", type: "number" }, TYPED)).toEqual({ amount: { not: null } });
  });

  test("not goes down to the leaves, a negated comparison keeping the rows where the field is null", () => {
    expect(where({ op: "not", arg: { op: "or", args: [lt5, isA] } }, TYPED)).toEqual({
      AND: [{ OR: [{ amount: null }, { amount: { gte: 5 } }] }, { OR: [{ name: null }, { name: { not: "a" } }] }],
    });
    expect(where({ op: "not", arg: { op: "in", pointer: "/s", values: ["a", "b"] } }, TYPED)).toEqual({
      OR: [{ name: null }, { name: { notIn: ["a", "b"] } }],
    });
    expect(where({ op: "not", arg: { op: "isNull", pointer: "/s" } }, TYPED)).toEqual({ name: { not: null } });
  });

  test("a constant of another type than the field's is false and folds away: {} for true, {OR: []} for false", () => {
    const isOne: PlanCondition = { op: "eq", left: { pointer: "/s" }, right: { value: 1 } };
    expect(where(isOne, TYPED)).toEqual({ OR: [] });
    expect(where({ op: "not", arg: isOne }, TYPED)).toEqual({});
    expect(where({ op: "or", args: [isOne, lt5] }, TYPED)).toEqual({ amount: { lt: 5 } });
    expect(where({ op: "gt", left: { pointer: "/n" }, right: { value: "5" } }, TYPED)).toEqual({ OR: [] });
  });

  test("without columnTypes a field's type is that of the constants it is compared with", () => {
    const columns = { "/n": "amount", "/s": "name" };
    expect(
      where({ op: "and", args: [lt5, isA, { op: "isType", pointer: "/n", type: "number" }] }, { columns }),
    ).toEqual({
      AND: [{ amount: { lt: 5 } }, { name: { equals: "a" } }, { amount: { not: null } }],
    });
  });
});

describe("refusals", () => {
  const refusal = (condition: PlanCondition, options: PrismaWhereOptions) => {
    const result = prismaWhere(condition, options);
    expect(result).toBeInstanceOf(PlanNotTranslatableError);
    return result as PlanNotTranslatableError;
  };

  test("a pointer without a column, naming the node", () => {
    const node: PlanCondition = { op: "isNull", pointer: "/other" };
    const error = refusal({ op: "or", args: [lt5, node] }, TYPED);
    expect(error.code).toBe("PLAN_NOT_TRANSLATABLE");
    expect(error.node).toBe(node);
  });

  test("two fields compared", () => {
    const node: PlanCondition = { op: "eq", left: { pointer: "/n" }, right: { pointer: "/s" } };
    expect(refusal(node, TYPED).node).toBe(node);
  });

  test("a field whose type neither columnTypes nor the constants tell, where it matters", () => {
    const columns = { "/n": "amount" };
    const isType: PlanCondition = { op: "isType", pointer: "/n", type: "number" };
    expect(refusal(isType, { columns }).node).toBe(isType);
    const mixed: PlanCondition = { op: "in", pointer: "/n", values: [1, "1"] };
    expect(refusal(mixed, { columns }).node).toBe(mixed);
    expect(where({ op: "isNull", pointer: "/n" }, { columns })).toEqual({ amount: null });
  });
});

describe("meaning", () => {
  const SEED = fuzzSeed();
  const FIELDS: Record<string, ColumnType> = {
    amount: "number",
    price: "number",
    name: "string",
    active: "boolean",
    label: "string",
  };
  const OPTIONS: PrismaWhereOptions = {
    columns: { "/n": "amount", "/m": "price", "/s": "name", "/f": "active", "/a/b": "label" },
    columnTypes: { "/n": "number", "/m": "number", "/s": "string", "/f": "boolean", "/a/b": "string" },
  };
  const POINTERS = Object.keys(OPTIONS.columns);
  const STRINGS_WITH_NUL = [...STRINGS, NUL_STRING];

  test("the rows Prisma's where keeps are exactly the rows conditionHolds accepts", async () => {
    const random = seededRandom(SEED);
    const rows = randomRows(random, 150, POINTERS, STRINGS_WITH_NUL, {
      "/n": "number",
      "/m": "number",
      "/s": "string",
      "/f": "boolean",
      "/a/b": "string",
    });
    const prismaRows = rows.map(
      (row): PrismaRow =>
        Object.fromEntries(
          POINTERS.map((pointer) => [OPTIONS.columns[pointer]!, (valueAt(row, pointer) ?? null) as PrismaRow[string]]),
        ),
    );
    const conditions = Array.from({ length: 600 }, () =>
      randomCondition(random, { pointers: POINTERS, strings: STRINGS_WITH_NUL, pointerPairs: () => false }),
    );
    const outcome = await differentialCheck({
      label: `Prisma, seed ${SEED} (QUERIES_FUZZ_SEED)`,
      rows,
      conditions,
      translate: (condition) => prismaWhere(condition, OPTIONS),
      show: (filter) => `where ${JSON.stringify(filter)}`,
      refusalExpected: () => false,
      // Prisma keeps a row where its filter is true; unknown leaves it out, as false does.
      evaluate: async (filter) =>
        prismaRows.map((row, index) => ({ id: index + 1, holds: prismaHolds(filter, row, FIELDS) === true })),
    });
    expect(outcome.failures).toEqual([]);
    expect(outcome.checked).toBe(600);
  });
});
