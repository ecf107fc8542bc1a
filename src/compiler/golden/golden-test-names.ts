import { didYouMean } from "../../engine/names/closest-name.ts";
import { listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import {
  operationMentions,
  operationNames,
  STANDARD_OPERATIONS,
  type OperationMention,
} from "../checks/operation-mentions.ts";
import {
  locateProblems,
  placeIn,
  type DocumentSources,
  type Located,
  type PlacedProblem,
  type ProblemPlace,
} from "../problems/problem-place.ts";
import type { ResolvedRuleset } from "../resolve/resolve-ruleset.ts";

/**
 * The golden tests of a ruleset's document that name an entity or an operation the ruleset does
 * not know. Such a test selects no rule, so it expects `allow` and passes while testing nothing.
 *
 * - TEST_ENTITY_UNKNOWN: the entity is neither declared under `entities` (inherited ones too;
 *   where entity schemas are named) nor the target of a rule. Other tests do not vouch for it: a
 *   request for an undeclared entity selects no rule however many tests make it.
 * - TEST_OPERATION_UNKNOWN: the operation is not a standard one (create, read, update, delete,
 *   list), and no rule (inherited ones too), OpenAPI binding or other golden test names it.
 *
 * Problems of `check` (and `test` and the editor), never load problems: what the server loads
 * does not depend on the tests.
 */
export function goldenTestNameProblems(
  ruleset: ResolvedRuleset,
  sources: DocumentSources | undefined,
): Located<PlacedProblem>[] {
  const entities = new Set(Object.keys(objectAt(ruleset.resolved.entities)));
  for (const rule of listAt(ruleset.resolved.rules)) {
    const entity = objectAt(objectAt(rule).target).entity;
    if (typeof entity === "string") entities.add(entity);
  }
  const mentions = operationMentions(ruleset);
  const operations = operationNames(mentions);
  const document = ruleset.document;
  const problems: PlacedProblem[] = [];
  listAt(document.tests).forEach((entry, index) => {
    const test = objectAt(entry);
    const name = stringAt(test.name);
    const at = (member: string): ProblemPlace => placeIn(document, ["tests", String(index), member]);
    if (typeof test.entity === "string" && !entities.has(test.entity)) {
      problems.push({
        code: "TEST_ENTITY_UNKNOWN",
        message: `golden test "${name}" names entity ${test.entity}, which the ruleset does not declare and no rule targets: the test selects no rule${didYouMean(test.entity, entities)}`,
        place: at("entity"),
      });
    }
    const operation = test.operation;
    if (typeof operation !== "string" || STANDARD_OPERATIONS.includes(operation)) return;
    const itself = (mention: OperationMention): boolean =>
      mention.by === "test" && mention.document === document && mention.index === index;
    if (mentions.some((mention) => mention.operation === operation && !itself(mention))) return;
    problems.push({
      code: "TEST_OPERATION_UNKNOWN",
      message: `golden test "${name}" names operation ${operation}, which no rule, binding or other golden test names: the test selects no rule${didYouMean(operation, operations)}`,
      place: at("operation"),
    });
  });
  return locateProblems(problems, sources);
}
