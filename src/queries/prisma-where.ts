import type { ComparisonOperator, PlanCondition, PlanScalar } from "../engine/plan/plan-condition.ts";
import { type ColumnMapping, type ColumnType, columnOf, columnTypeOf } from "./column-mapping.ts";
import { PlanNotTranslatableError, untranslatableAsValue } from "./plan-not-translatable.ts";
import { checkedScalar } from "./translatable-text.ts";

/** A Prisma `where` object: plain data, to pass to `findMany({where})` and the like. */
export type PrismaWhere = { [member: string]: unknown };

export interface PrismaWhereOptions extends ColumnMapping {
  /** Pointer to the Prisma field that holds its scalar (null for null or missing). */
  readonly columns: Readonly<Record<string, string>>;
}

/**
 * A plan's condition as a Prisma `where` over fields (`AND`, `OR`, `{field: {equals | lt | ... |
 * in}}`, `{field: null}`), for conditions whose pointers all have a field: Prisma's JSON filters
 * cannot say what the condition means exactly. Prisma writes SQL, where a comparison with NULL is
 * unknown and `NOT` leaves it unknown (`{x: {not: 5}}` drops the rows where x is NULL), so `not`
 * is pushed down to the leaves and a negated comparison says `{OR: [{x: null}, {x: {not: 5}}]}`;
 * the result has no `NOT`. A field's type comes from `columnTypes`, or else from the constants the
 * condition compares it with (all of one type); a constant of another type never equals it, so
 * that comparison is false and leaves the query. Comparing two fields, or a field whose type cannot
 * be told where it matters, gives PlanNotTranslatableError. A condition that folds to true is `{}`,
 * to false `{OR: []}`, which Prisma documents as matching no record.
 */
export function prismaWhere(
  condition: PlanCondition,
  options: PrismaWhereOptions,
): PrismaWhere | PlanNotTranslatableError {
  return untranslatableAsValue(() => {
    const filter = translated(condition, false, { options, constantTypes: constantTypes(condition) });
    if (filter === true) return {};
    if (filter === false) return { OR: [] };
    return filter;
  });
}

/** A filter, or a constant the walk folds away. */
type Filter = PrismaWhere | boolean;

interface Translation {
  readonly options: PrismaWhereOptions;
  /** The types of the constants each pointer is compared with. */
  readonly constantTypes: ReadonlyMap<string, ReadonlySet<ColumnType>>;
}

/** What `not` makes of each comparison on a field that is not NULL. */
const NEGATED: Readonly<Record<ComparisonOperator, string>> = { eq: "not", lt: "gte", lte: "gt", gt: "lte", gte: "lt" };
const PRISMA_OPERATOR: Readonly<Record<ComparisonOperator, string>> = {
  eq: "equals",
  lt: "lt",
  lte: "lte",
  gt: "gt",
  gte: "gte",
};

/** The condition, or its negation when `negated`. */
function translated(node: PlanCondition, negated: boolean, translation: Translation): Filter {
  switch (node.op) {
    case "and":
    case "or": {
      const all = (node.op === "and") !== negated;
      return combined(
        node.args.map((arg) => translated(arg, negated, translation)),
        all,
      );
    }
    case "not":
      return translated(node.arg, !negated, translation);
    case "isNull": {
      const field = fieldOf(node, node.pointer, translation);
      return negated ? { [field]: { not: null } } : { [field]: null };
    }
    case "isType": {
      const field = fieldOf(node, node.pointer, translation);
      if (node.type !== fieldType(node, node.pointer, translation)) return negated;
      return negated ? { [field]: null } : { [field]: { not: null } };
    }
    case "in": {
      const field = fieldOf(node, node.pointer, translation);
      const type = fieldType(node, node.pointer, translation);
      const values = node.values.map((value) => checkedScalar(value, node)).filter((value) => typeof value === type);
      if (values.length === 0) return negated;
      return negated ? { OR: [{ [field]: null }, { [field]: { notIn: values } }] } : { [field]: { in: values } };
    }
    default: {
      if ("pointer" in node.right)
        throw new PlanNotTranslatableError(
          "Prisma's where compares a field with constants, not with another field",
          node,
        );
      const field = fieldOf(node, node.left.pointer, translation);
      const value: PlanScalar = checkedScalar(node.right.value, node);
      if (node.op !== "eq" && typeof value !== "number") return negated;
      if (typeof value !== fieldType(node, node.left.pointer, translation)) return negated;
      if (!negated) return { [field]: { [PRISMA_OPERATOR[node.op]]: value } };
      return { OR: [{ [field]: null }, { [field]: { [NEGATED[node.op]]: value } }] };
    }
  }
}

/** AND (`all`) or OR of filters, constants folded, nested ones of the same kind flattened. */
function combined(filters: readonly Filter[], all: boolean): Filter {
  const key = all ? "AND" : "OR";
  const kept: PrismaWhere[] = [];
  for (const filter of filters) {
    if (typeof filter === "boolean") {
      if (filter !== all) return filter;
      continue;
    }
    const members = Object.keys(filter);
    if (members.length === 1 && members[0] === key) kept.push(...(filter[key] as PrismaWhere[]));
    else kept.push(filter);
  }
  if (kept.length === 0) return all;
  return kept.length === 1 ? kept[0]! : { [key]: kept };
}

function fieldOf(node: PlanCondition, pointer: string, translation: Translation): string {
  const field = columnOf(translation.options, pointer);
  if (field === undefined)
    throw new PlanNotTranslatableError(
      `the pointer ${pointer} has no column: Prisma's JSON filters cannot read it exactly`,
      node,
    );
  return field;
}

function fieldType(node: PlanCondition, pointer: string, translation: Translation): ColumnType {
  const declared = columnTypeOf(translation.options, pointer);
  if (declared !== undefined) return declared;
  const types = [...(translation.constantTypes.get(pointer) ?? [])];
  if (types.length === 1) return types[0]!;
  throw new PlanNotTranslatableError(
    `the type of the field of ${pointer} cannot be told from the condition's constants: declare it in columnTypes`,
    node,
  );
}

/** For each pointer, the types of the constants it is compared with (ordering: numbers only, the rest is false). */
function constantTypes(condition: PlanCondition): Map<string, Set<ColumnType>> {
  const types = new Map<string, Set<ColumnType>>();
  const add = (pointer: string, value: PlanScalar) => {
    const set = types.get(pointer) ?? new Set<ColumnType>();
    set.add(typeof value as ColumnType);
    types.set(pointer, set);
  };
  const visit = (node: PlanCondition): void => {
    switch (node.op) {
      case "and":
      case "or":
        node.args.forEach(visit);
        return;
      case "not":
        visit(node.arg);
        return;
      case "in":
        for (const value of node.values) add(node.pointer, value);
        return;
      case "isNull":
      case "isType":
        return;
      default:
        if ("value" in node.right && (node.op === "eq" || typeof node.right.value === "number"))
          add(node.left.pointer, node.right.value);
    }
  };
  visit(condition);
  return types;
}
