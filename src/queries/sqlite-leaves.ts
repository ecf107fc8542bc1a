import type { PlanCondition, PlanScalar, PlanValueType } from "../engine/plan/plan-condition.ts";
import { PlanNotTranslatableError } from "./plan-not-translatable.ts";
import { COMPARISON_SQL, type SqlLeaves, valuesByType } from "./sql-condition-walk.ts";
import { FALSE, joined, keyword, parameter, type SqlFragment, sql, TRUE } from "./sql-fragment.ts";
import { type SqliteReading, type SqliteValue, sqliteValueAt } from "./sqlite-value-reader.ts";

/** `json_type`'s names (and `typeof`'s, for columns) of each type of a plan. */
const TYPE_NAMES: Readonly<Record<PlanValueType, SqlFragment>> = {
  number: keyword("('integer', 'real')"),
  string: keyword("('text')"),
  boolean: keyword("('true', 'false')"),
  list: keyword("('array')"),
  object: keyword("('object')"),
};

/**
 * The leaves in SQLite. Each tests the type first (`type IN (...) AND value = ?`): `type` is
 * never NULL, so a row of another type gives FALSE AND ..., which is FALSE, and once the type is
 * known `value` is not NULL either. SQLite never fails a comparison, so no CASE is needed to
 * guard one. Strings compare with COLLATE BINARY, whatever a column declares; numbers as SQLite
 * compares its integers and 64-bit floats. Booleans are 1 and 0 in parameters.
 */
export function sqliteLeaves(reading: SqliteReading): SqlLeaves {
  const at = (pointer: string, node: PlanCondition) => sqliteValueAt(pointer, reading, node);
  return {
    isNull: (node, pointer) => sql`(${at(pointer, node).type} = 'null')`,
    isType: (node, pointer, type) => sql`(${at(pointer, node).type} IN ${TYPE_NAMES[type]})`,
    compareToConstant(node, op, pointer, value) {
      if (op !== "eq" && typeof value !== "number") return FALSE;
      const read = at(pointer, node);
      const type = typeof value as "number" | "string" | "boolean";
      return sql`(${read.type} IN ${TYPE_NAMES[type]} AND ${comparable(read, type)} ${COMPARISON_SQL[op]} ${parameter(parameterValue(value))})`;
    },
    compareToPointer(node, op, left, right) {
      if (op === "eq" && left === right) return TRUE;
      const a = at(left, node);
      const b = at(right, node);
      if (op !== "eq")
        return sql`(${a.type} IN ${TYPE_NAMES.number} AND ${b.type} IN ${TYPE_NAMES.number} AND ${a.value} ${COMPARISON_SQL[op]} ${b.value})`;
      return pointersEqual(a, b, node);
    },
    isIn(node, pointer, values) {
      const read = at(pointer, node);
      const groups = [...valuesByType(values)].map(([type, group]) => {
        const params = joined(
          group.map((value) => sql`${parameter(parameterValue(value))}`),
          ", ",
        );
        return sql`(${read.type} IN ${TYPE_NAMES[type]} AND ${comparable(read, type)} IN (${params}))`;
      });
      if (groups.length === 0) return FALSE;
      return groups.length === 1 ? groups[0]! : sql`(${joined(groups, " OR ")})`;
    },
  };
}

/** The value as compared with a constant of a type: text byte by byte. */
function comparable(read: SqliteValue, type: "number" | "string" | "boolean"): SqlFragment {
  return type === "string" ? sql`${read.value} COLLATE BINARY` : read.value;
}

function parameterValue(value: PlanScalar): number | string {
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

/**
 * `eq` of two pointers: both null, or both of one scalar type and equal. Lists and objects would
 * need a deep comparison SQLite's JSON functions do not give exactly (key order, 1 and 1.0,
 * escapes in keys), so two pointers into the JSON column are refused; a column holds scalars only.
 */
function pointersEqual(a: SqliteValue, b: SqliteValue, node: PlanCondition): SqlFragment {
  if (a.readsJson && b.readsJson)
    throw new PlanNotTranslatableError(
      "SQLite cannot compare two values of the JSON column exactly (lists and objects member by member)",
      node,
    );
  const both = (type: PlanValueType) => sql`${a.type} IN ${TYPE_NAMES[type]} AND ${b.type} IN ${TYPE_NAMES[type]}`;
  return sql`((${a.type} = 'null' AND ${b.type} = 'null') OR (${both("number")} AND ${a.value} = ${b.value}) OR (${both("string")} AND ${a.value} COLLATE BINARY = ${b.value}) OR (${both("boolean")} AND ${a.value} = ${b.value}))`;
}
