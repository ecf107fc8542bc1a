import { closestName } from "../names/closest-name.ts";
import type { DeclaredNames } from "../names/declared-names.ts";
import type { Explanation, UnmatchedName } from "./explanation.ts";

/**
 * A request's entity the ruleset does not declare, and an operation no rule of that entity names
 * (of any rule, for an undeclared entity), each with the closest declared name. Counting the
 * selected rules does not tell: rules that target a type are selected for any entity.
 */
export function unmatchedNames(names: DeclaredNames, entity: string, operation: string): Explanation["unmatched"] {
  const unmatched: NonNullable<Explanation["unmatched"]> = {};
  const entityKnown = names.entities.has(entity);
  if (!entityKnown) unmatched.entity = named(entity, names.entities);
  const operations = entityKnown ? (names.operationsByEntity.get(entity) ?? new Set<string>()) : names.operations;
  if (!operations.has(operation)) unmatched.operation = named(operation, operations);
  return unmatched.entity === undefined && unmatched.operation === undefined ? undefined : unmatched;
}

function named(given: string, known: Iterable<string>): UnmatchedName {
  const closest = closestName(given, known);
  return closest === undefined ? { given } : { given, didYouMean: closest };
}
