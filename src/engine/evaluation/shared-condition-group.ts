import type { ValueReader } from "../expression/generated-path-reader.ts";
import type { Node } from "../expression/prepared-node.ts";
import type { Scope } from "../expression/scope.ts";
import type { JsonValue } from "../value/json-value.ts";
import type { Value } from "../value/value-kind.ts";
import type { BoundField } from "./evaluation-plan.ts";

/**
 * Where a validation rule evaluates its `when`: once, per item of a list (`forEach`), or per
 * field bound to a type (`target.type`, which wins over `forEach`, as in evaluate-request.ts).
 */
export type Iteration =
  | { readonly kind: "once" }
  | { readonly kind: "each"; readonly pointer: string; readonly read: ValueReader }
  | { readonly kind: "type"; readonly typeName: JsonValue };

/** What a group's condition is evaluated against: the request's scope once compute rules are done. */
export interface SettledRequest {
  readonly scope: Scope;
  readonly data: Value;
  fieldsOfType(typeName: JsonValue): readonly BoundField[];
}

/**
 * Rules whose `when` starts with the same condition (leading-condition.ts) and that evaluate it
 * at the same places: the condition is evaluated once per request, at each of those places, and
 * when it is false at every one the group's rules are known not to apply. Anything else (true,
 * not a boolean, an error) decides nothing, and the rules are evaluated as they are, so that an
 * error is still each rule's own failure. Compute rules are never grouped: they write the data
 * the condition reads.
 */
export class SharedConditionGroup {
  /** Rule positions (PreparedRule.position). */
  readonly positions: number[] = [];

  constructor(
    /** The condition, prepared as the rule's `when` is (same expression, same depth). */
    private readonly condition: Node,
    private readonly iteration: Iteration,
  ) {}

  /** Whether the condition is false wherever the group's rules would evaluate their `when`. */
  falseEverywhere(request: SettledRequest): boolean {
    const scope = request.scope;
    try {
      switch (this.iteration.kind) {
        case "once":
          return this.condition(scope, 0) === false;
        case "type":
          for (const { pointer, read } of request.fieldsOfType(this.iteration.typeName)) {
            scope.value = read(request.data);
            scope.field = pointer;
            if (this.condition(scope, 0) !== false) return false;
          }
          return true;
        case "each": {
          const list = this.iteration.read(request.data);
          // No item: the rules have nothing to evaluate; not a list: they fail, so they must run.
          if (list === null) return true;
          if (!Array.isArray(list)) return false;
          for (let index = 0; index < list.length; index++) {
            scope.item = list[index]!;
            if (this.condition(scope, 0) !== false) return false;
          }
          return true;
        }
      }
    } catch {
      return false;
    } finally {
      scope.value = null;
      scope.field = null;
      scope.item = null;
    }
  }
}
