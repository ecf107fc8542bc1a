/**
 * What completion and hover say of each core operator (specification 4.3), in our words: its
 * arguments as a short signature and what it gives. A test keeps it in step with the engine's list.
 */
export interface OperatorHelp {
  readonly args: string;
  readonly summary: string;
}

export const OPERATOR_HELP: Readonly<Record<string, OperatorHelp>> = {
  and: { args: "boolean...", summary: "true when every argument is true; stops at the first false (`and []` is true)" },
  or: { args: "boolean...", summary: "true when some argument is true; stops at the first true (`or []` is false)" },
  not: { args: "boolean", summary: "the opposite of its argument" },
  eq: {
    args: "any, any",
    summary: "true when both values are equal (numbers by value, lists and objects member by member)",
  },
  ne: { args: "any, any", summary: "true when the values are not equal" },
  lt: { args: "number, number", summary: "first < second; anything but two numbers is an evaluation error" },
  lte: { args: "number, number", summary: "first <= second; anything but two numbers is an evaluation error" },
  gt: { args: "number, number", summary: "first > second; anything but two numbers is an evaluation error" },
  gte: { args: "number, number", summary: "first >= second; anything but two numbers is an evaluation error" },
  between: { args: "number, low, high", summary: "low <= number <= high" },
  in: { args: "any, list", summary: "true when the list holds the value" },
  exists: { args: "any", summary: "true unless the value is null (a missing field is null)" },
  empty: { args: "any", summary: 'true for null, "", [] and {}' },
  coalesce: {
    args: "any...",
    summary: "the first argument that is not null, else null; later arguments are evaluated only when needed",
  },
  if: {
    args: "boolean, then, else",
    summary: "the second argument when the first is true, else the third; only that one is evaluated",
  },
  typeOf: { args: "any", summary: '"null", "boolean", "number", "string", "list" or "object"' },
  add: { args: "number, number", summary: "the sum" },
  sub: { args: "number, number", summary: "the first minus the second" },
  mul: { args: "number, number", summary: "the product" },
  div: { args: "number, number", summary: "the first divided by the second; dividing by zero is an evaluation error" },
  mod: {
    args: "number, number",
    summary: "the remainder of truncated division, with the sign of the first; a zero divisor is an error",
  },
  abs: { args: "number", summary: "the absolute value" },
  min: { args: "number...", summary: "the least of one or more numbers" },
  max: { args: "number...", summary: "the greatest of one or more numbers" },
  round: { args: "number, places?", summary: "rounded half to even, to 0..15 decimal places (default 0)" },
  len: { args: "string | list", summary: "the number of code points of a string, or of elements of a list" },
  lower: { args: "string", summary: "ASCII letters in lower case" },
  upper: { args: "string", summary: "ASCII letters in upper case" },
  trim: { args: "string", summary: "without leading and trailing spaces, tabs and line breaks" },
  concat: { args: "string...", summary: 'the strings joined; "" for none' },
  substring: { args: "string, start, length?", summary: "code points from start (zero-based), at most length of them" },
  text: { args: "any", summary: "the value as text, as messages render it" },
  matches: {
    args: "string, pattern",
    summary: "true when the portable pattern (a literal) is found anywhere in the string",
  },
  startsWith: { args: "string, string", summary: "true when the first string starts with the second" },
  endsWith: { args: "string, string", summary: "true when the first string ends with the second" },
  contains: { args: "string, string", summary: "true when the first string holds the second" },
  list: { args: "any...", summary: "a list of the arguments" },
  all: {
    args: "list, predicate",
    summary: "true when the predicate holds for every element (`item`); every element is evaluated",
  },
  some: {
    args: "list, predicate",
    summary: "true when the predicate holds for some element (`item`); every element is evaluated",
  },
  none: {
    args: "list, predicate",
    summary: "true when the predicate holds for no element (`item`); every element is evaluated",
  },
  sum: { args: "list, expression", summary: "the sum of the expression over the elements (`item`); 0 for none" },
  map: { args: "list, expression", summary: "the list of the expression's value for each element (`item`)" },
  filter: { args: "list, predicate", summary: "the elements (`item`) for which the predicate is true" },
  daysBetween: { args: "date, date", summary: "whole calendar days from the first date to the second, in UTC" },
  yearsBetween: {
    args: "date, date",
    summary: "completed years from the first date to the second, as ages are counted",
  },
};

/** What each root of a `var` path names. */
export const VAR_ROOT_HELP: Readonly<Record<string, string>> = {
  data: "the entity as the request sends it",
  original: "the entity before the change (update operations)",
  actor: "who is acting, as the host authenticated them",
  ctx: "what the host adds: the clock (`ctx.now`), the locale, the channel",
  params: "the ruleset's typed constants, after overrides",
  item: "the element of the innermost all, some, none, sum, map or filter",
  value: "the value of the field a type rule is bound to",
  field: "the pointer of the field a type rule is bound to",
  arg: "the arguments of the function whose body this is",
};
