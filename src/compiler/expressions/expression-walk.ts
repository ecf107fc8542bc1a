import { isJsonObject, listAt, objectAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";

/**
 * Walking expressions as written in a ruleset, for the static checks (section 5, step 10) and for
 * what a manifest must carry (section 7).
 */

const COLLECTION_OPERATORS = new Set(["all", "some", "none", "sum", "map", "filter"]);

/**
 * Visits an expression node and everything nested in its args. `itemBound` is true where `item`
 * is bound by an enclosing collection operator (its second argument).
 */
export function walkExpression(node: JsonValue | undefined, visit: (node: JsonObject, itemBound: boolean) => void, itemBound = false): void {
  if (!isJsonObject(node)) return;
  visit(node, itemBound);
  const bindsItem = typeof node.op === "string" && COLLECTION_OPERATORS.has(node.op);
  listAt(node.args).forEach((arg, index) => walkExpression(arg, visit, itemBound || (bindsItem && index === 1)));
}

/** Every expression a rule holds: `when`, `assert`, finding args, assigned values, command payloads and keys. */
export function ruleExpressions(rule: JsonObject): JsonValue[] {
  const expressions: JsonValue[] = [];
  if (Object.hasOwn(rule, "when")) expressions.push(rule.when!);
  if (Object.hasOwn(rule, "assert")) expressions.push(rule.assert!);
  expressions.push(...Object.values(objectAt(objectAt(rule.finding).args)));
  for (const assignment of listAt(rule.assign)) expressions.push(objectAt(assignment).value ?? null);
  for (const entry of listAt(rule.commands)) {
    const command = objectAt(entry);
    expressions.push(...Object.values(objectAt(command.payload)));
    expressions.push(...listAt(command.idempotencyKey));
  }
  return expressions;
}

/** The functions and custom operators reachable from expressions, following function bodies. */
export function reachableNames(expressions: readonly JsonValue[], functions: JsonObject): { functions: Set<string>; operators: Set<string> } {
  const calledFunctions = new Set<string>();
  const operators = new Set<string>();
  const pending = [...expressions];
  const visit = (node: JsonObject): void => {
    if (typeof node.fn === "string" && !calledFunctions.has(node.fn)) {
      calledFunctions.add(node.fn);
      const fn = functions[node.fn];
      if (isJsonObject(fn)) pending.push(fn.body ?? null);
    }
    if (typeof node.op === "string" && node.op.startsWith("x-")) operators.add(node.op);
  };
  while (pending.length > 0) walkExpression(pending.pop(), visit);
  return { functions: calledFunctions, operators };
}

/** Whether an expression by itself is nested more than `limit` deep (specification 4.7). */
export function expressionTooDeep(node: JsonValue | undefined, limit: number): boolean {
  if (limit < 1) return true;
  if (!isJsonObject(node) || (!Object.hasOwn(node, "op") && !Object.hasOwn(node, "fn"))) return false;
  return listAt(node.args).some((arg) => expressionTooDeep(arg, limit - 1));
}
