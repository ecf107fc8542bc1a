import { closestName } from "../../engine/names/closest-name.ts";

/**
 * Names other rule engines, query languages and programming languages give the core operators,
 * lower-cased: an author who writes `lessOrEqual` or `<=` meant `lte`, though no spelling mistake
 * turns the one into the other.
 */
const OPERATOR_ALIASES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    lte: ["lessorequal", "lessthanorequal", "lessthanorequalto", "lessequal", "le", "<="],
    lt: ["lessthan", "less", "<"],
    gte: ["greaterorequal", "greaterthanorequal", "greaterthanorequalto", "greaterequal", "ge", ">="],
    gt: ["greaterthan", "greater", ">"],
    eq: ["equals", "equal", "equalto", "is", "=", "==", "==="],
    ne: ["notequals", "notequal", "notequalto", "neq", "isnot", "!=", "!==", "<>"],
    and: ["&&"],
    or: ["||"],
    not: ["!", "negate"],
    add: ["plus", "+"],
    sub: ["minus", "subtract", "-"],
    mul: ["times", "multiply", "*"],
    div: ["divide", "/"],
    mod: ["modulo", "remainder", "rem", "%"],
    len: ["length", "size", "count"],
    lower: ["lowercase", "tolowercase", "tolower"],
    upper: ["uppercase", "touppercase", "toupper"],
    matches: ["regex", "match", "matchesregex", "like"],
    startsWith: ["beginswith"],
    contains: ["includes"],
    concat: ["concatenate", "join"],
    exists: ["isdefined", "defined", "notnull", "isnotnull"],
    empty: ["isempty", "blank", "isblank"],
    coalesce: ["ifnull", "nvl", "??"],
    if: ["ifthenelse", "cond", "case", "?:"],
    all: ["every", "forall"],
    some: ["any"],
    filter: ["where"],
    map: ["collect", "transform"],
    in: ["oneof", "inlist"],
  }).flatMap(([operator, aliases]) => aliases.map((alias): [string, string] => [alias, operator])),
);

/** The core operator meant by a name that is not one: its alias in another engine, else the closest name. */
export function operatorMeant(name: string, operators: readonly string[]): string | undefined {
  const alias = OPERATOR_ALIASES.get(name.toLowerCase());
  return alias !== undefined && operators.includes(alias) ? alias : closestName(name, operators);
}
