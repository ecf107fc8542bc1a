import type { TypeName } from "../../value/value-kind.ts";

/**
 * The kind of value each core operator gives (specification 4.3); `if`, `coalesce`, `date` and the
 * like give what their arguments do and are not listed. One table for the compiler's warnings,
 * coverage's decision points and the expression walks.
 */
export const OPERATOR_RESULT_KINDS: Readonly<Record<string, TypeName>> = {
  and: "boolean",
  or: "boolean",
  not: "boolean",
  eq: "boolean",
  ne: "boolean",
  lt: "boolean",
  lte: "boolean",
  gt: "boolean",
  gte: "boolean",
  between: "boolean",
  in: "boolean",
  exists: "boolean",
  empty: "boolean",
  matches: "boolean",
  startsWith: "boolean",
  endsWith: "boolean",
  contains: "boolean",
  all: "boolean",
  some: "boolean",
  none: "boolean",
  add: "number",
  sub: "number",
  mul: "number",
  div: "number",
  mod: "number",
  abs: "number",
  min: "number",
  max: "number",
  round: "number",
  len: "number",
  sum: "number",
  daysBetween: "number",
  yearsBetween: "number",
  lower: "string",
  upper: "string",
  trim: "string",
  concat: "string",
  substring: "string",
  text: "string",
  typeOf: "string",
  list: "list",
  map: "list",
  filter: "list",
};

/** The operators whose value is a boolean: each a decision point whose true and false outcomes coverage counts. */
export const BOOLEAN_OPERATORS: ReadonlySet<string> = new Set(
  Object.keys(OPERATOR_RESULT_KINDS).filter((op) => OPERATOR_RESULT_KINDS[op] === "boolean"),
);

/** The operators that run their second argument once per item of a list (binding `item`). */
export const COLLECTION_OPERATORS: ReadonlySet<string> = new Set(["all", "some", "none", "sum", "map", "filter"]);
