import { closestName, suggesting } from "../../engine/names/closest-name.ts";
import { listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import { placeIn } from "../problems/problem-place.ts";
import type { ResolvedRuleset } from "../resolve/resolve-ruleset.ts";
import type { PlacedWarning } from "./check-warnings.ts";
import { operationMentions, operationNames, STANDARD_OPERATIONS } from "./operation-mentions.ts";

/**
 * OPERATION_UNUSED: an operation in a rule of this document that no other rule (inherited ones
 * too), golden test or OpenAPI binding names. A request names its operation, so a misspelt one
 * (`craete`) quietly takes the rule out of every evaluation; a custom operation that is meant is
 * confirmed by a golden test for it. The standard operations are never warned about. Inherited
 * rules are left to their own document's check, so each file is told once.
 */
export function operationWarnings(ruleset: ResolvedRuleset): PlacedWarning[] {
  const mentions = operationMentions(ruleset);
  const known = operationNames(mentions);
  const warnings: PlacedWarning[] = [];
  for (const entry of listAt(ruleset.resolved.rules)) {
    const rule = objectAt(entry);
    const id = stringAt(rule.id);
    const declared = ruleset.places.rules.get(id);
    if (declared === undefined || declared.document !== ruleset.document) continue;
    listAt(rule.operations).forEach((operation, index) => {
      if (typeof operation !== "string" || STANDARD_OPERATIONS.includes(operation)) return;
      if (
        mentions.some((mention) => mention.operation === operation && !(mention.by === "rule" && mention.rule === id))
      )
        return;
      const closest = closestName(operation, known);
      const advice =
        closest === undefined ? "; if the name is right, a golden test for it says so" : suggesting(closest);
      warnings.push({
        code: "OPERATION_UNUSED",
        message: `operation ${operation} is named by no other rule, golden test or binding${advice}`,
        rule: id,
        place: placeIn(declared.document, [...declared.path, "operations", String(index)]),
        ...(closest === undefined ? {} : { didYouMean: closest }),
      });
    });
  }
  return warnings;
}
