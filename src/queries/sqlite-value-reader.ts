import type { PlanCondition } from "../engine/plan/plan-condition.ts";
import { type ColumnMapping, columnOf, columnTypeOf } from "./column-mapping.ts";
import { columnIdentifier } from "./sql-identifier.ts";
import { joined, parameter, type SqlFragment, sql } from "./sql-fragment.ts";
import { sqliteJsonPaths } from "./sqlite-json-path.ts";

/**
 * The value at a pointer as SQLite reads it: `type`, `json_type`'s name for it ('null' when null
 * or missing, never NULL: 'integer', 'real', 'text', 'true', 'false', 'array', 'object'), and
 * `value`, the SQL value to compare once the type is known (booleans as 1 and 0).
 */
export interface SqliteValue {
  readonly type: SqlFragment;
  readonly value: SqlFragment;
  /** Read from the JSON column, where it may be a list or an object. */
  readonly readsJson: boolean;
}

export interface SqliteReading extends ColumnMapping {
  readonly jsonColumn: string;
}

export function sqliteValueAt(pointer: string, reading: SqliteReading, node: PlanCondition): SqliteValue {
  const column = columnOf(reading, pointer);
  if (column !== undefined) {
    const name = columnIdentifier(column, "sqlite", node);
    // A column holds numbers and text as SQLite stores them; 0 and 1 are booleans only when declared so.
    if (columnTypeOf(reading, pointer) === "boolean")
      return {
        type: sql`CASE ${name} WHEN 1 THEN 'true' WHEN 0 THEN 'false' ELSE 'null' END`,
        value: name,
        readsJson: false,
      };
    return { type: sql`typeof(${name})`, value: name, readsJson: false };
  }
  const json = columnIdentifier(reading.jsonColumn, "sqlite", node);
  const paths = sqliteJsonPaths(pointer, node).map(parameter);
  const types = paths.map((path) => sql`json_type(${json}, ${path})`);
  const values = paths.map((path) => sql`json_extract(${json}, ${path})`);
  // At most one path resolves: the first that does gives the type and the value.
  return {
    type: sql`COALESCE(${joined(types, ", ")}, 'null')`,
    value: values.length === 1 ? values[0]! : sql`COALESCE(${joined(values, ", ")})`,
    readsJson: true,
  };
}
