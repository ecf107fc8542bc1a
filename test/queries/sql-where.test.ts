import { describe, expect, test } from "bun:test";
import type { PlanCondition } from "../../src/engine/plan/plan-condition.ts";
import { PlanNotTranslatableError } from "../../src/queries/plan-not-translatable.ts";
import type { SqlDialect } from "../../src/queries/sql-fragment.ts";
import { type SqlWhereOptions, sqlWhere } from "../../src/queries/sql-where.ts";

/**
 * The text of a WHERE clause: placeholders and parameters, constants kept out of the text, and
 * refusals naming the node. What the clauses mean is pinned down on real databases
 * (sqlite-where.test.ts, postgres-where.test.ts).
 */
function text(condition: PlanCondition, options: SqlWhereOptions) {
  const result = sqlWhere(condition, options);
  if (result instanceof PlanNotTranslatableError) throw result;
  return result;
}

function refusal(condition: PlanCondition, options: SqlWhereOptions): PlanNotTranslatableError {
  const result = sqlWhere(condition, options);
  if (!(result instanceof PlanNotTranslatableError)) throw new Error(`translated: ${result.where}`);
  return result;
}

const INJECTION = "'); DROP TABLE t; --";

describe("placeholders", () => {
  const condition: PlanCondition = {
    op: "and",
    args: [
      { op: "lt", left: { pointer: "/a" }, right: { value: 5 } },
      { op: "eq", left: { pointer: "/b" }, right: { value: "x" } },
    ],
  };

  test("SQLite: one ? per parameter, in order, a path read twice passed twice", () => {
    const { where, params } = text(condition, { dialect: "sqlite" });
    expect(where.split("?").length - 1).toBe(params.length);
    expect(params).toEqual(['$."a"', '$."a"', 5, '$."b"', '$."b"', "x"]);
  });

  test("PostgreSQL: $1, $2, ... with a path read twice numbered once, keys as a text[] and numbers as decimal text", () => {
    const { where, params } = text(condition, { dialect: "postgresql" });
    expect(params).toEqual([["a"], "5", ["b"], "x"]);
    expect(where).toBe(
      `((CASE WHEN jsonb_typeof(("data" #> $1::text[])) = 'number' THEN (("data" #> $1::text[]))::numeric < $2::numeric ELSE FALSE END) AND COALESCE(("data" #> $3::text[]) = to_jsonb($4::text), FALSE))`,
    );
  });

  test("booleans are 1 and 0 in SQLite's parameters, booleans in PostgreSQL's", () => {
    const condition: PlanCondition = { op: "in", pointer: "/a", values: [true, false] };
    expect(text(condition, { dialect: "sqlite" }).params.slice(-2)).toEqual([1, 0]);
    expect(text(condition, { dialect: "postgresql" }).params.slice(-2)).toEqual([true, false]);
  });
});

describe("constants and names stay out of the text", () => {
  for (const dialect of ["sqlite", "postgresql"] as SqlDialect[]) {
    test(`${dialect}: a string constant and a pointer's keys are parameters`, () => {
      const condition: PlanCondition = {
        op: "or",
        args: [
          { op: "eq", left: { pointer: `/${INJECTION}` }, right: { value: INJECTION } },
          { op: "in", pointer: "/k", values: [INJECTION, 1] },
        ],
      };
      const { where, params } = text(condition, { dialect });
      expect(where).not.toContain("DROP");
      expect(params).toContain(INJECTION);
    });

    test(`${dialect}: a column's name is quoted, its quotes doubled`, () => {
      const condition: PlanCondition = { op: "isNull", pointer: "/a" };
      const { where } = text(condition, { dialect, columns: { "/a": 'a"b' } });
      expect(where).toBe(
        dialect === "sqlite"
          ? `(typeof("a""b") = 'null')`
          : `(COALESCE(jsonb_typeof(to_jsonb("a""b")), 'null') = 'null')`,
      );
    });

    test(`${dialect}: the JSON column is "data" unless named`, () => {
      const condition: PlanCondition = { op: "isNull", pointer: "/a" };
      expect(text(condition, { dialect }).where).toContain('"data"');
      expect(text(condition, { dialect, jsonColumn: "body" }).where).toContain('"body"');
      expect(text(condition, { dialect, jsonColumn: "body" }).where).not.toContain('"data"');
    });
  }
});

describe("columns", () => {
  test("PostgreSQL compares a column of a declared type as it is, so that its indexes apply", () => {
    const options: SqlWhereOptions = {
      dialect: "postgresql",
      columns: { "/a": "a", "/s": "s" },
      columnTypes: { "/a": "number", "/s": "string" },
    };
    expect(text({ op: "gte", left: { pointer: "/a" }, right: { value: 1.5 } }, options).where).toBe(
      `("a" IS NOT NULL AND "a" >= $1::numeric)`,
    );
    expect(text({ op: "eq", left: { pointer: "/s" }, right: { value: "x" } }, options).where).toBe(
      `("s" IS NOT NULL AND "s" COLLATE "C" = $1::text)`,
    );
    expect(text({ op: "eq", left: { pointer: "/a" }, right: { value: "x" } }, options).where).toBe("FALSE");
    expect(text({ op: "isType", pointer: "/a", type: "number" }, options).where).toBe(`("a" IS NOT NULL)`);
  });

  test("SQLite reads 0 and 1 as booleans in a column declared boolean, as numbers otherwise", () => {
    const condition: PlanCondition = { op: "eq", left: { pointer: "/f" }, right: { value: true } };
    const typed = text(condition, { dialect: "sqlite", columns: { "/f": "f" }, columnTypes: { "/f": "boolean" } });
    expect(typed.where).toBe(
      `(CASE "f" WHEN 1 THEN 'true' WHEN 0 THEN 'false' ELSE 'null' END IN ('true', 'false') AND "f" = ?)`,
    );
    expect(typed.params).toEqual([1]);
    expect(text(condition, { dialect: "sqlite", columns: { "/f": "f" } }).where).toStartWith(
      `(typeof("f") IN ('true', 'false')`,
    );
  });
});

describe("constant cases", () => {
  for (const dialect of ["sqlite", "postgresql"] as SqlDialect[]) {
    test(`${dialect}: eq of a pointer with itself is TRUE (two nulls are equal), an in of no values FALSE`, () => {
      expect(text({ op: "eq", left: { pointer: "/a" }, right: { pointer: "/a" } }, { dialect })).toEqual({
        where: "TRUE",
        params: [],
      });
      expect(text({ op: "in", pointer: "/a", values: [] }, { dialect })).toEqual({ where: "FALSE", params: [] });
    });

    test(`${dialect}: ordering against a constant that is no number is FALSE, without reading the value`, () => {
      expect(text({ op: "lt", left: { pointer: "/a" }, right: { value: "5" } }, { dialect })).toEqual({
        where: "FALSE",
        params: [],
      });
    });
  }
});

describe("refusals name the node", () => {
  const bothJson: PlanCondition = { op: "eq", left: { pointer: "/a" }, right: { pointer: "/b" } };

  test("SQLite refuses eq of two JSON values (lists and objects cannot be compared exactly), not of a column and a JSON value", () => {
    const condition: PlanCondition = { op: "not", arg: bothJson };
    const error = refusal(condition, { dialect: "sqlite" });
    expect(error.code).toBe("PLAN_NOT_TRANSLATABLE");
    expect(error.node).toBe(bothJson);
    expect(sqlWhere(condition, { dialect: "sqlite", columns: { "/a": "a" } })).not.toBeInstanceOf(
      PlanNotTranslatableError,
    );
  });

  test("PostgreSQL compares two JSON values as jsonb", () => {
    expect(text(bothJson, { dialect: "postgresql" }).where).toContain(
      `COALESCE(("data" #> $1::text[]) = ("data" #> $2::text[]), FALSE)`,
    );
  });

  test("SQLite refuses more than four keys of digits in a pointer (each doubles the paths)", () => {
    const node: PlanCondition = { op: "isNull", pointer: "/0/1/2/3/4" };
    expect(refusal(node, { dialect: "sqlite" }).node).toBe(node);
    expect(text({ op: "isNull", pointer: "/0/1/2/3" }, { dialect: "sqlite" }).params).toHaveLength(16);
  });

  test("PostgreSQL refuses NUL in a string or a key, which its text cannot hold; SQLite takes them", () => {
    for (const node of [
      { op: "eq", left: { pointer: "/a" }, right: { value: "x\u0000" } },
      { op: "isNull", pointer: "/a\u0000" },
    ] as PlanCondition[]) {
      expect(refusal(node, { dialect: "postgresql" }).node).toBe(node);
      expect(sqlWhere(node, { dialect: "sqlite" })).not.toBeInstanceOf(PlanNotTranslatableError);
    }
  });

  test("both refuse a lone surrogate in a string or a key, and a number JSON has not", () => {
    for (const dialect of ["sqlite", "postgresql"] as SqlDialect[]) {
      for (const node of [
        { op: "eq", left: { pointer: "/a" }, right: { value: "\ud800" } },
        { op: "isNull", pointer: "/\udc00x" },
        { op: "lt", left: { pointer: "/a" }, right: { value: Number.POSITIVE_INFINITY } },
      ] as PlanCondition[]) {
        expect(refusal(node, { dialect }).node).toBe(node);
      }
    }
  });

  test("both refuse an empty column name; PostgreSQL one longer than 63 bytes, which it would cut", () => {
    const node: PlanCondition = { op: "isNull", pointer: "/a" };
    expect(refusal(node, { dialect: "sqlite", columns: { "/a": "" } }).node).toBe(node);
    expect(refusal(node, { dialect: "postgresql", columns: { "/a": "é".repeat(32) } }).node).toBe(node);
    expect(text(node, { dialect: "postgresql", columns: { "/a": "é".repeat(31) } }).where).toContain("é");
  });
});
