import { placedRuleExpressions, walkExpression } from "../../compiler/expressions/expression-walk.ts";
import { listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject } from "../../engine/value/json-value.ts";

/**
 * The rules among `rules` whose expressions read a masked member: a `var` path that leads to, or
 * into, one of the masked JSON Pointers of the request (`data.debtor.iban` reads `/data/debtor/iban`).
 */
export function rulesReadingMasked(manifest: JsonObject, rules: readonly string[], masked: readonly string[]): string[] {
  const wanted = new Set(rules);
  const reading: string[] = [];
  for (const entry of listAt(manifest.rules)) {
    const rule = objectAt(entry);
    const id = stringAt(rule.id);
    if (!wanted.has(id)) continue;
    let reads = false;
    for (const { expression } of placedRuleExpressions(rule)) {
      walkExpression(expression, (node) => {
        if (typeof node.var !== "string") return;
        const pointer = "/" + node.var.split(".").join("/");
        if (masked.some((member) => pointer === member || pointer.startsWith(`${member}/`) || member.startsWith(`${pointer}/`))) reads = true;
      });
    }
    if (reads) reading.push(id);
  }
  return reading;
}
