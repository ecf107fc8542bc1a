import type { PreparedRule } from "../evaluation/prepared-rule.ts";

/**
 * The entities a manifest declares (named by a rule's target, binding field types, or having a
 * schema) and the operations its rules name, for each entity (a rule that targets a type names
 * its operations for every entity) and in all, read once per plan.
 */
export interface DeclaredNames {
  readonly entities: ReadonlySet<string>;
  readonly operationsByEntity: ReadonlyMap<string, ReadonlySet<string>>;
  readonly operations: ReadonlySet<string>;
}

export function declaredNames(rules: readonly PreparedRule[], otherEntities: Iterable<string>): DeclaredNames {
  const entities = new Set<string>(otherEntities);
  const operationsByEntity = new Map<string, Set<string>>();
  const operations = new Set<string>();
  // Rules that target a type take part for any entity: their operations are every entity's.
  const anyEntity = new Set<string>();
  for (const rule of rules) {
    for (const operation of rule.operations) operations.add(operation);
    if (rule.entity === undefined) {
      for (const operation of rule.operations) anyEntity.add(operation);
      continue;
    }
    entities.add(rule.entity);
    let named = operationsByEntity.get(rule.entity);
    if (named === undefined) operationsByEntity.set(rule.entity, (named = new Set()));
    for (const operation of rule.operations) named.add(operation);
  }
  for (const entity of entities) {
    let named = operationsByEntity.get(entity);
    if (named === undefined) operationsByEntity.set(entity, (named = new Set()));
    for (const operation of anyEntity) named.add(operation);
  }
  return { entities, operationsByEntity, operations };
}
