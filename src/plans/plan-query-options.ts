import { isJsonObject } from "../engine/value/json-access.ts";
import type { JsonObject } from "../engine/value/json-value.ts";
import type { ColumnType } from "../queries/column-mapping.ts";
import { SQL_DIALECTS, type SqlDialect } from "../queries/sql-fragment.ts";

/** How a plan request asks for its query: the dialect, and the columns pointers are read from. */
export interface PlanQueryOptions {
  readonly dialect?: SqlDialect;
  /** Pointer to column; any other pointer is read from the JSON column `data`. */
  readonly columns?: Readonly<Record<string, string>>;
  /**
   * Pointer to the type its column holds besides NULL: the column is then compared as it is (its
   * indexes apply), and SQLite reads 0 and 1 of a `boolean` column as booleans.
   */
  readonly columnTypes?: Readonly<Record<string, ColumnType>>;
}

const COLUMN_TYPES: readonly ColumnType[] = ["number", "string", "boolean"];

/** A plan request whose query members are malformed: answered 400, as a malformed evaluation request is. */
export class PlanQueryOptionsError extends Error {
  readonly code = "BAD_REQUEST" as const;
  override readonly name = "PlanQueryOptionsError";
}

/** The request's `dialect` and `columns`; throws PlanQueryOptionsError for malformed ones. */
export function readPlanQueryOptions(request: JsonObject): PlanQueryOptions {
  const { dialect, columns, columnTypes } = request;
  if (dialect !== undefined && dialect !== null && !SQL_DIALECTS.includes(dialect as SqlDialect))
    throw new PlanQueryOptionsError(`'dialect' must be ${SQL_DIALECTS.map((name) => `"${name}"`).join(" or ")}`);
  if (columns !== undefined && columns !== null) {
    if (!isJsonObject(columns))
      throw new PlanQueryOptionsError("'columns' must be an object of JSON Pointers to column names");
    for (const [pointer, column] of Object.entries(columns)) {
      if (pointer !== "" && !pointer.startsWith("/"))
        throw new PlanQueryOptionsError(
          `'columns' has ${JSON.stringify(pointer)}, which is not a JSON Pointer (they start with /)`,
        );
      if (typeof column !== "string" || column === "")
        throw new PlanQueryOptionsError(
          `'columns' maps ${pointer} to ${JSON.stringify(column)}: a column name is a non-empty string`,
        );
    }
  }
  if (columnTypes !== undefined && columnTypes !== null) {
    if (!isJsonObject(columnTypes))
      throw new PlanQueryOptionsError("'columnTypes' must be an object of JSON Pointers to number, string or boolean");
    for (const [pointer, type] of Object.entries(columnTypes)) {
      if (!COLUMN_TYPES.includes(type as ColumnType))
        throw new PlanQueryOptionsError(
          `'columnTypes' gives ${pointer} the type ${JSON.stringify(type)}: number, string or boolean`,
        );
      if (!isJsonObject(columns) || !Object.hasOwn(columns, pointer))
        throw new PlanQueryOptionsError(`'columnTypes' names ${pointer}, which 'columns' gives no column`);
    }
  }
  return {
    ...(typeof dialect === "string" ? { dialect: dialect as SqlDialect } : {}),
    ...(isJsonObject(columns) ? { columns: columns as Record<string, string> } : {}),
    ...(isJsonObject(columnTypes) ? { columnTypes: columnTypes as Record<string, ColumnType> } : {}),
  };
}
