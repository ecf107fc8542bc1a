import type { PlanCondition } from "../engine/plan/plan-condition.ts";
import type { ColumnMapping } from "./column-mapping.ts";
import { type PlanNotTranslatableError, untranslatableAsValue } from "./plan-not-translatable.ts";
import { postgresLeaves } from "./postgres-leaves.ts";
import { conditionSql } from "./sql-condition-walk.ts";
import { rendered, type SqlDialect, type SqlText } from "./sql-fragment.ts";
import { sqliteLeaves } from "./sqlite-leaves.ts";

export interface SqlWhereOptions extends ColumnMapping {
  readonly dialect: SqlDialect;
  /** The column holding the row's `data` as JSON (jsonb in PostgreSQL, JSON text in SQLite) for pointers without a column; "data" unless said. */
  readonly jsonColumn?: string;
}

/**
 * A plan's condition as a parameterised WHERE clause (without `WHERE`): `?` parameters for
 * SQLite, `$1, $2, ...` for PostgreSQL. The clause is TRUE exactly for the rows whose data meets
 * the condition (conditionHolds) and never NULL, so it can be negated or combined as it is.
 * Constants, JSON paths included, are parameters and column names quoted identifiers. What
 * cannot be expressed exactly gives PlanNotTranslatableError, naming the node.
 */
export function sqlWhere(condition: PlanCondition, options: SqlWhereOptions): SqlText | PlanNotTranslatableError {
  const reading = { ...options, jsonColumn: options.jsonColumn ?? "data" };
  return untranslatableAsValue(() => {
    const leaves = options.dialect === "sqlite" ? sqliteLeaves(reading) : postgresLeaves(reading);
    return rendered(conditionSql(condition, leaves), options.dialect);
  });
}
