/**
 * Where a translation reads each pointer of a condition: a column of its own, named in `columns`
 * and holding the scalar at the pointer (NULL for null or missing), or else the JSON column.
 */
export interface ColumnMapping {
  /** Pointer to column name. */
  readonly columns?: Readonly<Record<string, string>>;
  /**
   * Pointer to the type of the values its column holds besides NULL. SQLite tells numbers from
   * text by their storage class and needs it only for booleans: a column declared boolean holds
   * 1, 0 or NULL, read as true and false; undeclared, 0 and 1 are numbers. PostgreSQL compares a
   * declared column directly (its indexes apply) instead of through `to_jsonb`. Prisma takes from
   * it which constants a field can equal.
   */
  readonly columnTypes?: Readonly<Record<string, ColumnType>>;
}

export type ColumnType = "number" | "string" | "boolean";

/** The column a pointer reads, if it has one (own members only: a pointer named `constructor` is no column). */
export function columnOf(mapping: ColumnMapping, pointer: string): string | undefined {
  const columns = mapping.columns;
  return columns !== undefined && Object.hasOwn(columns, pointer) ? columns[pointer] : undefined;
}

export function columnTypeOf(mapping: ColumnMapping, pointer: string): ColumnType | undefined {
  const types = mapping.columnTypes;
  return types !== undefined && Object.hasOwn(types, pointer) ? types[pointer] : undefined;
}
