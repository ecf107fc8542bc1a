import type { ColumnType } from "../../src/queries/column-mapping.ts";

/**
 * Prisma's `where` over rows, as Prisma's documentation describes it, in SQL's three-valued logic
 * (true, false, or null for unknown), since Prisma writes SQL:
 * - the members of a filter object all hold (AND); `AND` takes a filter or a list and holds when
 *   all do, `OR` a list and holds when one does, `NOT` a filter or a list and holds when none does.
 *   With no filters, AND and NOT return every record and OR none (the docs' "null and undefined"
 *   page, "The effect of null on conditionals").
 * - `{field: null}` and `{field: {equals: null}}` are IS NULL, `{field: {not: null}}` IS NOT NULL.
 * - `{field: value}`, `equals`, `not` (with a value), `in`, `notIn`, `lt`, `lte`, `gt`, `gte` are
 *   SQL's comparisons: unknown when the field is NULL, so `{x: {not: 5}}` and `notIn` leave out
 *   the rows where x is NULL (prisma/prisma#24252); NOT of unknown is unknown, and only true keeps
 *   a row.
 * - a value of another type than the field's fails the query's validation: here, it throws.
 */
export type PrismaRow = Readonly<Record<string, number | string | boolean | null>>;
export type Truth = boolean | null;

export function prismaHolds(where: unknown, row: PrismaRow, fields: Readonly<Record<string, ColumnType>>): Truth {
  if (!isObject(where)) throw new Error(`a where is an object: ${JSON.stringify(where)}`);
  return all(
    Object.entries(where).map(([member, filter]) => {
      switch (member) {
        case "AND":
          return all(list(filter).map((item) => prismaHolds(item, row, fields)));
        case "OR":
          if (!Array.isArray(filter)) throw new Error("OR takes a list");
          return any(filter.map((item) => prismaHolds(item, row, fields)));
        case "NOT":
          return all(list(filter).map((item) => not(prismaHolds(item, row, fields))));
        default:
          return fieldHolds(member, filter, row, fields);
      }
    }),
  );
}

function fieldHolds(
  field: string,
  filter: unknown,
  row: PrismaRow,
  fields: Readonly<Record<string, ColumnType>>,
): Truth {
  const type = fields[field];
  if (type === undefined || !Object.hasOwn(row, field)) throw new Error(`unknown field ${field}`);
  const value = row[field]!;
  if (filter === null) return value === null;
  if (!isObject(filter)) return compared("equals", value, filter, type);
  return all(Object.entries(filter).map(([operator, operand]) => compared(operator, value, operand, type)));
}

function compared(operator: string, value: PrismaRow[string], operand: unknown, type: ColumnType): Truth {
  if (operand === null && (operator === "equals" || operator === "not"))
    return operator === "equals" ? value === null : value !== null;
  const operands = operator === "in" || operator === "notIn" ? (operand as unknown[]) : [operand];
  if (!Array.isArray(operands)) throw new Error(`${operator} takes a list`);
  for (const item of operands)
    if (typeof item !== type) throw new Error(`validation: ${operator} ${JSON.stringify(item)} on a ${type} field`);
  if ((operator.startsWith("l") || operator.startsWith("g")) && type === "boolean")
    throw new Error(`validation: ${operator} on a boolean field`);
  if (value === null) return null;
  switch (operator) {
    case "equals":
      return value === operand;
    case "not":
      return value !== operand;
    case "in":
      return operands.includes(value);
    case "notIn":
      return !operands.includes(value);
    case "lt":
      return (value as number | string) < (operand as number | string);
    case "lte":
      return (value as number | string) <= (operand as number | string);
    case "gt":
      return (value as number | string) > (operand as number | string);
    case "gte":
      return (value as number | string) >= (operand as number | string);
    default:
      throw new Error(`validation: unknown filter ${operator}`);
  }
}

function list(filter: unknown): unknown[] {
  return Array.isArray(filter) ? filter : [filter];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function all(truths: readonly Truth[]): Truth {
  if (truths.includes(false)) return false;
  return truths.includes(null) ? null : true;
}

function any(truths: readonly Truth[]): Truth {
  if (truths.includes(true)) return true;
  return truths.includes(null) ? null : false;
}

function not(truth: Truth): Truth {
  return truth === null ? null : !truth;
}
