import type { PreparedRule } from "../evaluation/prepared-rule.ts";
import { closestName } from "../names/closest-name.ts";
import type { Explanation, UnmatchedName } from "./explanation.ts";

/** The entities a manifest declares and the operations its rules name for each, read once per plan. */
export interface DeclaredNames {
  readonly entities: ReadonlySet<string>;
  readonly operationsByEntity: ReadonlyMap<string, ReadonlySet<string>>;
  readonly operations: ReadonlySet<string>;
}

export function declaredNames(rules: readonly PreparedRule[], fieldTypeEntities: Iterable<string>): DeclaredNames {
  const entities = new Set<string>(fieldTypeEntities);
  const operationsByEntity = new Map<string, Set<string>>();
  const operations = new Set<string>();
  for (const rule of rules) {
    for (const operation of rule.operations) operations.add(operation);
    if (rule.entity === undefined) continue;
    entities.add(rule.entity);
    let named = operationsByEntity.get(rule.entity);
    if (named === undefined) operationsByEntity.set(rule.entity, (named = new Set()));
    for (const operation of rule.operations) named.add(operation);
  }
  return { entities, operationsByEntity, operations };
}

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
