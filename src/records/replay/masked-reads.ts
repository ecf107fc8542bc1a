import { placedRuleExpressions, walkExpression } from "../../compiler/expressions/expression-walk.ts";
import { listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject } from "../../engine/value/json-value.ts";
import { pointerPath } from "../../compiler/source/json-pointer.ts";

/**
 * The rules among `rules` whose expressions read a masked member: a `var` path that leads to, or
 * into, one of the masked JSON Pointers of the request (`data.debtor.iban` reads `/data/debtor/iban`,
 * `data.a/b` reads `/data/a~1b`). Paths are compared member by member, as unescaped tokens.
 */
export function rulesReadingMasked(manifest: JsonObject, rules: readonly string[], masked: readonly string[]): string[] {
  const wanted = new Set(rules);
  const maskedTokens = masked.map(pointerPath);
  const reading: string[] = [];
  for (const entry of listAt(manifest.rules)) {
    const rule = objectAt(entry);
    const id = stringAt(rule.id);
    if (!wanted.has(id)) continue;
    let reads = false;
    for (const { expression } of placedRuleExpressions(rule)) {
      walkExpression(expression, (node) => {
        if (typeof node.var !== "string") return;
        const path = node.var.split(".");
        if (maskedTokens.some((member) => leadsTo(path, member) || leadsTo(member, path))) reads = true;
      });
    }
    if (reads) reading.push(id);
  }
  return reading;
}

/** Whether `prefix` is `path` or a path that `path` goes on from. */
function leadsTo(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((token, index) => token === path[index]);
}
