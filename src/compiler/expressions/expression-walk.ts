import { isJsonObject, listAt, objectAt } from "../../engine/value/json-access.ts";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { COLLECTION_OPERATORS } from "../../engine/expression/operators/operator-kinds.ts";

/**
 * Walking expressions as written in a ruleset, for the static checks (section 5, step 10) and for
 * what a manifest must carry (section 7).
 */

/**
 * Visits an expression node and everything nested in its args. `itemBound` is true where `item`
 * is bound by an enclosing collection operator (its second argument). `path` leads from the
 * expression to the node (`args/0/args/1`); it is one array changed as the walk goes, so a
 * visitor that keeps it copies it.
 */
export function walkExpression(
  node: JsonValue | undefined,
  visit: (node: JsonObject, itemBound: boolean, path: readonly string[]) => void,
  itemBound = false,
  path: string[] = [],
): void {
  if (!isJsonObject(node)) return;
  visit(node, itemBound, path);
  const args = node.args;
  if (!Array.isArray(args)) return;
  const bindsItem = typeof node.op === "string" && COLLECTION_OPERATORS.has(node.op);
  // A loop, not forEach: every static check and manifest walks every node of every rule.
  for (let index = 0; index < args.length; index++) {
    path.push("args", String(index));
    walkExpression(args[index], visit, itemBound || (bindsItem && index === 1), path);
    path.length -= 2;
  }
}

/** An expression of a rule and its path inside the rule (`assign/0/value`). */
export interface RuleExpression {
  readonly expression: JsonValue;
  readonly path: readonly string[];
}

/** Every expression a rule holds, with its path: `when`, `assert`, finding args, assigned values, command payloads and keys. */
export function placedRuleExpressions(rule: JsonObject): RuleExpression[] {
  const expressions: RuleExpression[] = [];
  if (Object.hasOwn(rule, "when")) expressions.push({ expression: rule.when!, path: ["when"] });
  if (Object.hasOwn(rule, "assert")) expressions.push({ expression: rule.assert!, path: ["assert"] });
  for (const [name, arg] of Object.entries(objectAt(objectAt(rule.finding).args)))
    expressions.push({ expression: arg, path: ["finding", "args", name] });
  listAt(rule.assign).forEach((assignment, index) =>
    expressions.push({ expression: objectAt(assignment).value ?? null, path: ["assign", String(index), "value"] }),
  );
  listAt(rule.commands).forEach((entry, index) => {
    const command = objectAt(entry);
    for (const [name, value] of Object.entries(objectAt(command.payload)))
      expressions.push({ expression: value, path: ["commands", String(index), "payload", name] });
    listAt(command.idempotencyKey).forEach((part, at) =>
      expressions.push({ expression: part, path: ["commands", String(index), "idempotencyKey", String(at)] }),
    );
  });
  return expressions;
}

/** Every expression a rule holds (see placedRuleExpressions). */
export function ruleExpressions(rule: JsonObject): JsonValue[] {
  return placedRuleExpressions(rule).map((placed) => placed.expression);
}

/** The functions and custom operators reachable from expressions, following function bodies. */
export function reachableNames(
  expressions: readonly JsonValue[],
  functions: JsonObject,
): { functions: Set<string>; operators: Set<string> } {
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
