import { canonicalJson } from "../value/canonical-json.ts";
import type { PlanCondition } from "./plan-condition.ts";

/**
 * Conditions while a plan is worked out: a tree, or a constant. The constructors simplify as they
 * build (constants folded, `and` inside `and` flattened, a branch written twice kept once, a
 * branch beside its own negation decided), so a plan's tree holds no constant.
 */
export type Condition = PlanCondition | boolean;

/** A condition's canonical text, by which equal branches are told; trees are immutable, so kept per node. */
const keys = new WeakMap<PlanCondition, string>();
function keyOf(condition: PlanCondition): string {
  let key = keys.get(condition);
  if (key === undefined) keys.set(condition, (key = composedKey(condition)));
  return key;
}

/** Canonical JSON of a node from its branches' texts (members sorted: `arg`/`args` before `op`), so each node is written once. */
function composedKey(condition: PlanCondition): string {
  switch (condition.op) {
    case "not":
      return `{"arg":${keyOf(condition.arg)},"op":"not"}`;
    case "and":
    case "or":
      return `{"args":[${condition.args.map(keyOf).join(",")}],"op":"${condition.op}"}`;
    default:
      return canonicalJson(condition as never);
  }
}

export function not(condition: Condition): Condition {
  if (typeof condition === "boolean") return !condition;
  if (condition.op === "not") return condition.arg;
  return { op: "not", arg: condition };
}

export function and(...conditions: readonly Condition[]): Condition {
  return combine("and", conditions);
}

export function or(...conditions: readonly Condition[]): Condition {
  return combine("or", conditions);
}

function combine(op: "and" | "or", conditions: readonly Condition[]): Condition {
  // `and` stops at false and drops true; `or` the other way round.
  const absorbing = op === "or";
  // Most calls combine a constant or two with at most one tree: nothing to compare.
  let tree: PlanCondition | undefined;
  let trees = 0;
  for (const condition of conditions) {
    if (condition === absorbing) return absorbing;
    if (typeof condition !== "boolean") {
      tree = condition;
      trees++;
    }
  }
  if (trees === 0) return !absorbing;
  if (trees === 1) return tree!;
  const args = new Map<string, PlanCondition>();
  const add = (condition: Condition): boolean => {
    if (typeof condition === "boolean") return condition === absorbing;
    if (condition.op === op) return condition.args.some(add);
    args.set(keyOf(condition), condition);
    return false;
  };
  for (const condition of conditions) if (add(condition)) return absorbing;
  for (const [key, condition] of args) {
    // x and not x is false, x or not x is true.
    // Canonical JSON sorts members, so the negation's text is built around the branch's own.
    const negation = condition.op === "not" ? keyOf(condition.arg) : `{"arg":${key},"op":"not"}`;
    if (negation !== key && args.has(negation)) return absorbing;
  }
  const list = absorbed(op, [...args.values()]);
  if (list.length === 0) return !absorbing;
  if (list.length === 1) return list[0]!;
  return { op, args: list };
}

/**
 * Branches a sibling makes redundant: in `a or (not a and b)` the `not a` (likewise `a and (not a
 * or b)`), and of two leaves where one implies the other, the weaker in an `and` and the stronger
 * in an `or` (`amount >= 5000` implies that amount is a number).
 */
function absorbed(op: "and" | "or", list: readonly PlanCondition[]): PlanCondition[] {
  const siblings = new Set(list.map(keyOf));
  const inner = op === "and" ? "or" : "and";
  const simplified = list.map((condition): PlanCondition => {
    if (condition.op !== inner) return condition;
    const kept = condition.args.filter((arg) => !(arg.op === "not" && siblings.has(keyOf(arg.arg))));
    if (kept.length === condition.args.length) return condition;
    return kept.length === 1 ? kept[0]! : { op: inner, args: kept };
  });
  // Leaves keyed by the type test they imply: found in one pass, so a wide `or` stays linear.
  const typeTests = new Set<string>();
  const implied = new Set<string>();
  for (const condition of simplified) {
    if (condition.op === "isType") typeTests.add(`${condition.type}\u0000${condition.pointer}`);
    const type = impliedType(condition);
    if (type !== undefined) implied.add(type);
  }
  return simplified.filter((condition) => {
    if (op === "and") return !(condition.op === "isType" && implied.has(`${condition.type}\u0000${condition.pointer}`));
    const type = impliedType(condition);
    return type === undefined || !typeTests.has(type);
  });
}

/**
 * The type test a leaf implies, as `type\0pointer`: a comparison of data with a constant holds
 * only for data of the constant's type (an ordering, for numbers).
 */
function impliedType(condition: PlanCondition): string | undefined {
  if (!("left" in condition) || !("value" in condition.right)) return undefined;
  const type = condition.op === "eq" ? typeof condition.right.value : "number";
  return `${type}\u0000${condition.left.pointer}`;
}

/**
 * What is known of a condition: `lower` implies it and it implies `upper`. Where the plan could
 * work the condition out exactly the two are one; where it met something it cannot translate, they
 * part, and a query over `upper` returns every row that meets the condition and some that do not.
 */
export interface Bounds {
  readonly lower: Condition;
  readonly upper: Condition;
}

export const exactly = (condition: Condition): Bounds => ({ lower: condition, upper: condition });
export const NEVER: Bounds = exactly(false);
export const ALWAYS: Bounds = exactly(true);
/** Nothing known: it may or may not hold for any data. */
export const UNKNOWN: Bounds = { lower: false, upper: true };

export function isExact(bounds: Bounds): boolean {
  const { lower, upper } = bounds;
  if (lower === upper) return true;
  if (typeof lower === "boolean" || typeof upper === "boolean") return false;
  return keyOf(lower) === keyOf(upper);
}

export const notBounds = (bounds: Bounds): Bounds => ({ lower: not(bounds.upper), upper: not(bounds.lower) });

export const andBounds = (...list: readonly Bounds[]): Bounds => bothBounds(and, list);

export const orBounds = (...list: readonly Bounds[]): Bounds => bothBounds(or, list);

/** Both bounds combined; where every one is exact (the same condition twice), combined once. */
function bothBounds(combined: (...conditions: readonly Condition[]) => Condition, list: readonly Bounds[]): Bounds {
  const lower = combined(...list.map((bounds) => bounds.lower));
  if (list.every((bounds) => bounds.lower === bounds.upper)) return exactly(lower);
  return { lower, upper: combined(...list.map((bounds) => bounds.upper)) };
}

/** The same condition with every `not` moved down onto a leaf (De Morgan), as people read it best. */
export function withNegationsOnLeaves(condition: Condition, negated = false): Condition {
  if (typeof condition === "boolean") return negated !== condition;
  switch (condition.op) {
    case "not":
      return withNegationsOnLeaves(condition.arg, !negated);
    case "and":
    case "or": {
      const args = condition.args.map((arg) => withNegationsOnLeaves(arg, negated));
      return (condition.op === "and") !== negated ? and(...args) : or(...args);
    }
    default:
      return negated ? not(condition) : condition;
  }
}
