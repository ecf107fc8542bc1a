import type { PlanCondition, PlanScalar, PlanValueType } from "../engine/plan/plan-condition.ts";
import type { ColumnType } from "./column-mapping.ts";
import { PlanNotTranslatableError } from "./plan-not-translatable.ts";
import { asJsonb, type PostgresReading, postgresValueAt } from "./postgres-value-reader.ts";
import { COMPARISON_SQL, type SqlLeaves } from "./sql-condition-walk.ts";
import { FALSE, joined, keyword, parameter, type SqlFragment, sql, TRUE } from "./sql-fragment.ts";

/** `jsonb_typeof`'s name of each type of a plan. */
const JSONB_TYPE_NAMES: Readonly<Record<PlanValueType, SqlFragment>> = {
  number: keyword("'number'"),
  string: keyword("'string'"),
  boolean: keyword("'boolean'"),
  list: keyword("'array'"),
  object: keyword("'object'"),
};

const PARAMETER_TYPES: Readonly<Record<ColumnType, SqlFragment>> = {
  number: keyword("numeric"),
  string: keyword("text"),
  boolean: keyword("boolean"),
};

/**
 * The leaves in PostgreSQL. jsonb values compare as jsonb (`=` is by value: numbers as numeric,
 * lists in order, objects by members, strings byte by byte under the database's deterministic
 * collation) with the constant made jsonb by `to_jsonb($n::type)`, so that any driver passes it as
 * text; a missing value is NULL, hence COALESCE(..., FALSE). Ordering casts jsonb to numeric
 * inside a CASE that has checked the type, since AND does not promise to check it first. Typed
 * columns compare directly (`col IS NOT NULL AND col < $n::numeric`, FALSE AND NULL being FALSE),
 * strings under COLLATE "C". Numbers are passed as decimal text and compared as numeric.
 */
export function postgresLeaves(reading: PostgresReading): SqlLeaves {
  const at = (pointer: string, node: PlanCondition) => postgresValueAt(pointer, reading, node);
  return {
    isNull(node, pointer) {
      const read = at(pointer, node);
      return read.kind === "column" ? sql`(${read.column} IS NULL)` : sql`(${jsonbType(read.jsonb)} = 'null')`;
    },
    isType(node, pointer, type) {
      const read = at(pointer, node);
      if (read.kind === "jsonb") return sql`(${jsonbType(read.jsonb)} = ${JSONB_TYPE_NAMES[type]})`;
      return read.type === type ? sql`(${read.column} IS NOT NULL)` : FALSE;
    },
    compareToConstant(node, op, pointer, value) {
      if (op !== "eq" && typeof value !== "number") return FALSE;
      const read = at(pointer, node);
      if (read.kind === "column" && typeof value !== read.type) return FALSE;
      const constant = typedParameter(value, node);
      if (read.kind === "column")
        return sql`(${read.column} IS NOT NULL AND ${comparable(read.column, read.type)} ${COMPARISON_SQL[op]} ${constant})`;
      if (op === "eq") return sql`COALESCE(${read.jsonb} = to_jsonb(${constant}), FALSE)`;
      return sql`(CASE WHEN jsonb_typeof(${read.jsonb}) = 'number' THEN (${read.jsonb})::numeric ${COMPARISON_SQL[op]} ${constant} ELSE FALSE END)`;
    },
    compareToPointer(node, op, left, right) {
      if (op === "eq" && left === right) return TRUE;
      const a = asJsonb(at(left, node));
      const b = asJsonb(at(right, node));
      if (op === "eq")
        return sql`(CASE WHEN ${jsonbType(a)} = 'null' THEN ${jsonbType(b)} = 'null' ELSE COALESCE(${a} = ${b}, FALSE) END)`;
      return sql`(CASE WHEN jsonb_typeof(${a}) = 'number' AND jsonb_typeof(${b}) = 'number' THEN (${a})::numeric ${COMPARISON_SQL[op]} (${b})::numeric ELSE FALSE END)`;
    },
    isIn(node, pointer, values) {
      const read = at(pointer, node);
      if (read.kind === "jsonb") {
        const constants = values.map((value) => sql`to_jsonb(${typedParameter(value, node)})`);
        return sql`COALESCE(${read.jsonb} IN (${joined(constants, ", ")}), FALSE)`;
      }
      const candidates = values.filter((value) => typeof value === read.type);
      if (candidates.length === 0) return FALSE;
      const constants = candidates.map((value) => typedParameter(value, node));
      return sql`(${read.column} IS NOT NULL AND ${comparable(read.column, read.type)} IN (${joined(constants, ", ")}))`;
    },
  };
}

/** The jsonb type's name, 'null' when the value is null or missing: never NULL. */
function jsonbType(jsonb: SqlFragment): SqlFragment {
  return sql`COALESCE(jsonb_typeof(${jsonb}), 'null')`;
}

function comparable(column: SqlFragment, type: ColumnType): SqlFragment {
  return type === "string" ? sql`${column} COLLATE "C"` : column;
}

/** `$n::numeric` (the number as decimal text), `$n::text` or `$n::boolean`. */
function typedParameter(value: PlanScalar, node: PlanCondition): SqlFragment {
  if (typeof value === "string" && value.includes("\u0000"))
    throw new PlanNotTranslatableError(
      `the string ${JSON.stringify(value)} holds NUL, which PostgreSQL text cannot`,
      node,
    );
  const type = typeof value as ColumnType;
  return sql`${parameter(typeof value === "number" ? String(value) : value)}::${PARAMETER_TYPES[type]}`;
}
