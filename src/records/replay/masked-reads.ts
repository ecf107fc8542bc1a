import { placedRuleExpressions, reachableNames, walkExpression } from "../../compiler/expressions/expression-walk.ts";
import { listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonObject } from "../../engine/value/json-value.ts";
import { pointerPath } from "../../compiler/source/json-pointer.ts";

/**
 * What each rule of a manifest reads of a request, as paths of member names from the request's
 * top (`["data", "debtor", "iban"]`); `*` stands for any index of a list. Read from the rule as
 * written: its `var` paths, the bodies of the functions it calls, `value` through the fields bound
 * to its type, `item` of a `forEach` rule through its list. A path leading to a member counts as
 * reading everything inside it (`data` passed whole to a function reads every member).
 */
export type ReadPath = readonly string[];

const ANY_INDEX = "*";

/** A rule's reads, and for a compute rule the fields it assigns. */
export interface RuleReads {
  readonly id: string;
  readonly kind: string;
  readonly entry: JsonObject;
  readonly reads: readonly ReadPath[];
  readonly assigns: readonly ReadPath[];
  /** The `params` it reads and the functions it calls, followed through function bodies. */
  readonly params: ReadonlySet<string>;
  readonly functions: ReadonlySet<string>;
}

/** A rule that reads a masked member, and the pointer it reads (`via` the rule that computed it from one). */
export interface MaskedRead {
  readonly rule: string;
  readonly pointer: string;
  readonly via?: string;
}

/** The reads of every rule of a manifest that can run for an entity and operation. */
export function ruleReads(manifest: JsonObject, entity: string, operation: string): RuleReads[] {
  const functions = objectAt(manifest.functions);
  const bound = objectAt(objectAt(manifest.fieldTypes)[entity]);
  const reads: RuleReads[] = [];
  for (const value of listAt(manifest.rules)) {
    const rule = objectAt(value);
    const target = objectAt(rule.target);
    if (typeof target.entity === "string" && target.entity !== entity) continue;
    if (!listAt(rule.operations).includes(operation)) continue;
    const expressions = placedRuleExpressions(rule).map((placed) => placed.expression);
    const reached = reachableNames(expressions, functions);
    const paths: ReadPath[] = [];
    const params = new Set<string>();
    const forEach = typeof rule.forEach === "string" ? ["data", ...pointerPath(rule.forEach), ANY_INDEX] : undefined;
    const typeFields =
      typeof target.type === "string" ? Object.keys(bound).filter((pointer) => bound[pointer] === target.type) : [];
    const visit = (node: JsonObject, itemBound: boolean): void => {
      if (typeof node.var !== "string") return;
      const [root, ...rest] = node.var.split(".");
      if (root === "params") params.add(rest[0] ?? "");
      else if (root === "item") {
        // An `item` bound by a collection operator is read through the collection's own list, which is a read already.
        if (!itemBound && forEach !== undefined) paths.push([...forEach, ...rest]);
      } else if (root === "value")
        for (const pointer of typeFields) paths.push(["data", ...pointerPath(pointer), ...rest]);
      else if (root !== "field" && root !== "arg" && root !== undefined) paths.push([root, ...rest]);
    };
    for (const expression of expressions) walkExpression(expression, visit);
    for (const name of reached.functions) walkExpression(objectAt(functions[name]).body, visit);
    const assigns = listAt(rule.assign).map((assignment) => [
      "data",
      ...pointerPath(stringAt(objectAt(assignment).field)),
    ]);
    reads.push({
      id: stringAt(rule.id),
      kind: stringAt(rule.kind),
      entry: rule,
      reads: paths,
      assigns,
      params,
      functions: reached.functions,
    });
  }
  return reads;
}

/**
 * The rules among `reads` that read a masked member of the request, directly or through a field a
 * compute rule assigned from one (followed until nothing more is reached), by rule id.
 */
export function maskedReads(reads: readonly RuleReads[], masked: readonly string[]): Map<string, MaskedRead> {
  const tainted: { path: ReadPath; pointer: string; via?: string }[] = masked.map((pointer) => ({
    path: pointerPath(pointer),
    pointer,
  }));
  const found = new Map<string, MaskedRead>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const rule of reads) {
      if (found.has(rule.id)) continue;
      const hit = tainted.find((taint) => rule.reads.some((path) => overlaps(path, taint.path)));
      if (hit === undefined) continue;
      found.set(rule.id, { rule: rule.id, pointer: hit.pointer, ...(hit.via === undefined ? {} : { via: hit.via }) });
      // What it assigns is computed from what the replay cannot see.
      for (const path of rule.assigns)
        tainted.push({ path, pointer: `/${path.map(escapeToken).join("/")}`, via: rule.id });
      grew = true;
    }
  }
  return found;
}

/** Whether one path leads to or into the other (`*` matches any index). */
export function overlaps(a: ReadPath, b: ReadPath): boolean {
  const shorter = Math.min(a.length, b.length);
  for (let index = 0; index < shorter; index++) {
    if (a[index] !== b[index] && a[index] !== ANY_INDEX && b[index] !== ANY_INDEX) return false;
  }
  return true;
}

function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}
