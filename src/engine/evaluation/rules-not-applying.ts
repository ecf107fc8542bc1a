import type { Scope } from "../expression/scope.ts";
import type { JsonValue } from "../value/json-value.ts";
import type { Value } from "../value/value-kind.ts";
import type { ApplicabilityIndex } from "./applicability-index.ts";
import type { BoundField, RuleSelection } from "./evaluation-plan.ts";
import type { ActionRule, PreparedRule, StateRule, ValidationRule } from "./prepared-rule.ts";
import type { SettledRequest } from "./shared-condition-group.ts";
import type { WorkingData } from "./working-data.ts";

/** The rules of the phases after compute that are left to evaluate. */
export interface SettledRules {
  readonly state: readonly StateRule[];
  readonly validation: readonly ValidationRule[];
  readonly action: readonly ActionRule[];
}

/**
 * The rules of one request that are known not to apply (applicability-index.ts), marked by
 * position: evaluation passes over them, which gives what evaluating them would (no finding, no
 * effect, no command, no error). Compute rules are marked before the compute phase and again for
 * each variable a write changed; the other phases' rules once compute rules are done (`settle`),
 * since nothing after them writes the data.
 */
export class RulesNotApplying {
  private readonly marked: Uint8Array;
  /** The value each compute equality was last marked for. */
  private readonly computeValues: Value[];
  private writesSeen: number;

  constructor(
    private readonly index: ApplicabilityIndex,
    ruleCount: number,
    private readonly scope: Scope,
    private readonly working: WorkingData,
    private readonly fieldsOfType: (typeName: JsonValue) => readonly BoundField[],
  ) {
    this.marked = new Uint8Array(ruleCount);
    this.writesSeen = working.writes;
    this.computeValues = index.compute.map((equality) => {
      const value = equality.read(scope);
      equality.mark(this.marked, value);
      return value;
    });
  }

  /** Whether a compute rule is known not to apply to the data as it now is. */
  skipsCompute(rule: PreparedRule): boolean {
    if (this.working.writes !== this.writesSeen) {
      this.writesSeen = this.working.writes;
      const equalities = this.index.compute;
      for (let i = 0; i < equalities.length; i++) {
        const value = equalities[i]!.read(this.scope);
        // A scalar is compared by value; an object or list equals no literal, however it changed.
        if (Object.is(value, this.computeValues[i])) continue;
        this.computeValues[i] = value;
        equalities[i]!.mark(this.marked, value);
      }
    }
    return this.marked[rule.position] === 1;
  }

  /**
   * Marks the state, validation and action rules once the compute rules are done, and gives those
   * of `selection` that are left to evaluate, each kind in its order.
   */
  settle(selection: RuleSelection): SettledRules {
    const { scope, marked, index } = this;
    const data = this.working.root;
    for (const equality of index.settled) equality.mark(marked, equality.read(scope));
    const request: SettledRequest = { scope, data, fieldsOfType: this.fieldsOfType };
    for (const group of index.groups) {
      if (!group.falseEverywhere(request)) continue;
      for (const position of group.positions) marked[position] = 1;
    }
    for (const { typeName, positions } of index.types)
      if (this.fieldsOfType(typeName).length === 0) for (const position of positions) marked[position] = 1;
    // Last, as the list is read first: a missing or empty one evaluates nothing, and a value that
    // is not a list fails each of its rules before any `when`, whatever the marks above say.
    for (const { read, positions } of index.lists) {
      const list = read(data);
      if (Array.isArray(list) && list.length > 0) continue;
      const mark = list === null || Array.isArray(list) ? 1 : 0;
      for (const position of positions) marked[position] = mark;
    }
    return {
      state: this.unmarked(selection.state),
      validation: this.unmarked(selection.validation),
      action: this.unmarked(selection.action),
    };
  }

  /** The rules not marked, found by their positions alone: the rules themselves are not touched. */
  private unmarked<T extends PreparedRule>(rules: readonly T[]): readonly T[] {
    const positions = this.index.positionsOf(rules);
    const marked = this.marked;
    let first = 0;
    while (first < positions.length && marked[positions[first]!] === 0) first++;
    if (first === positions.length) return rules;
    const left: T[] = [];
    for (let i = 0; i < positions.length; i++) if (marked[positions[i]!] === 0) left.push(rules[i]!);
    return left;
  }
}
