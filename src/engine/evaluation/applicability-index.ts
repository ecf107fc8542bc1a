import type { ValueReader } from "../expression/generated-path-reader.ts";
import type { JsonValue } from "../value/json-value.ts";
import type { RuleSelection } from "./evaluation-plan.ts";
import { EqualityIndex } from "./equality-index.ts";
import type { SharedCondition } from "./leading-condition.ts";
import type { PreparedRule } from "./prepared-rule.ts";
import type { RuleConditions } from "./rule-conditions.ts";
import { SharedConditionGroup, type Iteration } from "./shared-condition-group.ts";

/** When an index is worth its work per request (a microsecond or so, whatever it saves). */
export interface IndexThresholds {
  /** The rules an equality, a condition, a list or a type must decide to be kept in the index. */
  readonly minimumRules: number;
  /** The rules the whole index must decide to be built. */
  readonly minimumDecided: number;
}

/**
 * One rule is evaluated about as fast as it is decided (and a condition only one rule starts with
 * would be evaluated twice when it holds); a selection of a few dozen rules evaluates them faster
 * than it would mark them.
 */
export const INDEX_THRESHOLDS: IndexThresholds = { minimumRules: 2, minimumDecided: 32 };

/** Validation rules run per item of one list: when it is missing or empty they evaluate nothing. */
export interface ListRules {
  readonly read: ValueReader;
  /** Rule positions (PreparedRule.position). */
  readonly positions: readonly number[];
}

/** Validation rules run per field bound to one type: when the request's entity binds none, they evaluate nothing. */
export interface TypeRules {
  readonly typeName: JsonValue;
  /** Rule positions (PreparedRule.position). */
  readonly positions: readonly number[];
}

/**
 * What makes the rules of one selection that cannot apply to a request cheap, built once per
 * selection of a plan (an entity, an operation and a trigger): rules filed by the literal their
 * `when` compares a variable with first (equality-index.ts), rules grouped by the condition their
 * `when` starts with (shared-condition-group.ts), validation rules grouped by the list or the
 * type they run over. Per request, rules-not-applying.ts marks the rules these show cannot apply
 * and evaluation passes over them; the rest are evaluated as they would be without an index.
 */
export class ApplicabilityIndex {
  /** The selection's own lists of state, validation and action rules, with their positions. */
  private readonly ownLists: readonly (readonly [readonly PreparedRule[], Int32Array])[];

  private constructor(
    selection: RuleSelection,
    /** Compute rules are filed by their equality only: their writes change the data, so it is read again after each. */
    readonly compute: readonly EqualityIndex[],
    /** State, validation and action rules, which see the data compute rules left. */
    readonly settled: readonly EqualityIndex[],
    readonly groups: readonly SharedConditionGroup[],
    readonly lists: readonly ListRules[],
    readonly types: readonly TypeRules[],
  ) {
    this.ownLists = [selection.state, selection.validation, selection.action].map(
      (rules: readonly PreparedRule[]) => [rules, Int32Array.from(rules, (rule) => rule.position)] as const,
    );
  }

  /** The positions (PreparedRule.position) of a list of rules, in its order: kept for the selection's own lists. */
  positionsOf(rules: readonly PreparedRule[]): Int32Array {
    for (const [own, positions] of this.ownLists) if (own === rules) return positions;
    return Int32Array.from(rules, (rule) => rule.position);
  }

  /** The index of a selection; undefined when none of its rules can be passed over this way. */
  static of(
    selection: RuleSelection,
    conditions: RuleConditions,
    thresholds: IndexThresholds,
  ): ApplicabilityIndex | undefined {
    const compute = new Map<string, EqualityIndex>();
    const settled = new Map<string, EqualityIndex>();
    const shared = new Map<string, { rules: PreparedRule[]; iteration: Iteration; condition: SharedCondition }>();
    const lists = new Map<string, { read: ValueReader; positions: number[] }>();
    const types = new Map<string, { typeName: JsonValue; positions: number[] }>();
    const file = (indexes: Map<string, EqualityIndex>, rule: PreparedRule): boolean => {
      const condition = conditions.of(rule);
      if (condition?.kind !== "equality") return false;
      let index = indexes.get(condition.variable);
      if (index === undefined)
        indexes.set(
          condition.variable,
          (index = new EqualityIndex(condition.variable, conditions.reader(condition.variable))),
        );
      index.file(rule.position, condition.literal);
      return true;
    };
    for (const rule of selection.compute) file(compute, rule);
    for (const rule of [...selection.state, ...selection.validation, ...selection.action]) {
      const iteration = iterationOf(rule);
      if (iteration.kind === "each") {
        const list = lists.get(iteration.pointer);
        if (list === undefined) lists.set(iteration.pointer, { read: iteration.read, positions: [rule.position] });
        else list.positions.push(rule.position);
      } else if (iteration.kind === "type") {
        const key = JSON.stringify(iteration.typeName);
        const type = types.get(key);
        if (type === undefined) types.set(key, { typeName: iteration.typeName, positions: [rule.position] });
        else type.positions.push(rule.position);
      }
      if (file(settled, rule)) continue;
      const condition = conditions.of(rule);
      if (condition?.kind !== "shared") continue;
      const key = `${iterationKey(iteration)}\u0000${condition.key}`;
      const group = shared.get(key);
      if (group !== undefined) group.rules.push(rule);
      else shared.set(key, { rules: [rule], iteration, condition });
    }
    const groups: SharedConditionGroup[] = [];
    for (const { rules, iteration, condition } of shared.values()) {
      if (rules.length < thresholds.minimumRules) continue;
      const group = new SharedConditionGroup(conditions.node(condition), iteration);
      for (const rule of rules) group.positions.push(rule.position);
      groups.push(group);
    }
    const several = <T extends { readonly positions: readonly number[] }>(all: Iterable<T>): T[] =>
      [...all].filter((each) => each.positions.length >= thresholds.minimumRules);
    const index = new ApplicabilityIndex(
      selection,
      several(compute.values()),
      several(settled.values()),
      groups,
      several(lists.values()),
      several(types.values()),
    );
    const structures = [index.compute, index.settled, groups, index.lists, index.types];
    const decided = structures.flat().reduce((sum, each) => sum + each.positions.length, 0);
    return decided > 0 && decided >= thresholds.minimumDecided ? index : undefined;
  }
}

function iterationOf(rule: PreparedRule): Iteration {
  if (rule.kind !== "validation") return { kind: "once" };
  if (rule.typeName !== undefined) return { kind: "type", typeName: rule.typeName };
  if (rule.forEach !== undefined) return { kind: "each", pointer: rule.forEach.pointer, read: rule.forEach.read };
  return { kind: "once" };
}

function iterationKey(iteration: Iteration): string {
  switch (iteration.kind) {
    case "once":
      return "once";
    case "each":
      return `each\u0000${iteration.pointer}`;
    case "type":
      return `type\u0000${JSON.stringify(iteration.typeName)}`;
  }
}
