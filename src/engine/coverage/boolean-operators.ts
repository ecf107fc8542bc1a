/**
 * The operators whose value is a boolean (specification 4.3): each is a decision point whose true
 * and false outcomes coverage counts. A custom operator or a function call may also give a
 * boolean, but nothing says so before it runs; it counts only as the root of a `when` or `assert`.
 */
export const BOOLEAN_OPERATORS: ReadonlySet<string> = new Set([
  "and",
  "or",
  "not",
  "eq",
  "ne",
  "lt",
  "lte",
  "gt",
  "gte",
  "between",
  "in",
  "exists",
  "empty",
  "matches",
  "startsWith",
  "endsWith",
  "contains",
  "all",
  "some",
  "none",
]);
