import { listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonValue } from "../../engine/value/json-value.ts";
import type { ResolvedRuleset } from "../resolve/resolve-ruleset.ts";

/**
 * The operations the specification names (section 3). Any ruleset may mean them, named anywhere
 * or nowhere else: a test that `delete` is allowed needs no rule about `delete`.
 */
export const STANDARD_OPERATIONS: readonly string[] = ["create", "read", "update", "delete", "list"];

/** One place a ruleset names an operation: a rule's `operations`, a golden test, or an OpenAPI binding. */
export type OperationMention =
  | { readonly operation: string; readonly by: "rule"; readonly rule: string }
  | { readonly operation: string; readonly by: "test"; readonly document: JsonValue; readonly index: number }
  | { readonly operation: string; readonly by: "binding" };

/**
 * Every place a resolved ruleset names an operation: its rules (inherited ones too), and the
 * golden tests and bindings of its document and of its parents' documents.
 */
export function operationMentions(ruleset: ResolvedRuleset): OperationMention[] {
  const mentions: OperationMention[] = [];
  for (const entry of listAt(ruleset.resolved.rules)) {
    const rule = objectAt(entry);
    for (const operation of new Set(listAt(rule.operations))) {
      if (typeof operation === "string") mentions.push({ operation, by: "rule", rule: stringAt(rule.id) });
    }
  }
  for (const document of [ruleset.document, ...ruleset.parents.map((parent) => parent.document)]) {
    listAt(document.tests).forEach((test, index) => {
      const operation = objectAt(test).operation;
      if (typeof operation === "string") mentions.push({ operation, by: "test", document, index });
    });
    for (const binding of listAt(objectAt(document.bindings).openapi)) {
      for (const operation of Object.keys(objectAt(objectAt(binding).operations)))
        mentions.push({ operation, by: "binding" });
    }
  }
  return mentions;
}

/** The operations of some mentions, with the standard ones: the names a misspelt operation is compared with. */
export function operationNames(mentions: readonly OperationMention[]): Set<string> {
  return new Set([...STANDARD_OPERATIONS, ...mentions.map((mention) => mention.operation)]);
}
