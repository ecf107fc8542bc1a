import type { PlanCondition } from "../engine/plan/plan-condition.ts";
import { type ColumnMapping, type ColumnType, columnOf, columnTypeOf } from "./column-mapping.ts";
import { postgresJsonAt } from "./postgres-json-path.ts";
import { columnIdentifier } from "./sql-identifier.ts";
import { type SqlFragment, sql } from "./sql-fragment.ts";

/**
 * The value at a pointer as PostgreSQL reads it: jsonb (NULL when missing) from the JSON column
 * or, for a column of no declared type, `to_jsonb` of it, which gives numbers, text and booleans
 * their JSON types whatever the column's SQL type; or a column declared to hold one type, compared
 * as it is so that its indexes apply.
 */
export type PostgresValue =
  | { readonly kind: "jsonb"; readonly jsonb: SqlFragment }
  | { readonly kind: "column"; readonly column: SqlFragment; readonly type: ColumnType };

export interface PostgresReading extends ColumnMapping {
  readonly jsonColumn: string;
}

export function postgresValueAt(pointer: string, reading: PostgresReading, node: PlanCondition): PostgresValue {
  const column = columnOf(reading, pointer);
  if (column === undefined) {
    const json = columnIdentifier(reading.jsonColumn, "postgresql", node);
    return { kind: "jsonb", jsonb: postgresJsonAt(json, pointer, node) };
  }
  const name = columnIdentifier(column, "postgresql", node);
  const type = columnTypeOf(reading, pointer);
  return type === undefined ? { kind: "jsonb", jsonb: sql`to_jsonb(${name})` } : { kind: "column", column: name, type };
}

export function asJsonb(value: PostgresValue): SqlFragment {
  return value.kind === "jsonb" ? value.jsonb : sql`to_jsonb(${value.column})`;
}
