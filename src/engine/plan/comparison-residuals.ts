import { isDecimal } from "../number/decimal.ts";
import { toLeavingValue } from "../value/leaving-value.ts";
import { isNumberValue, type Value } from "../value/value-kind.ts";
import { and, type Bounds, exactly, not, or, orBounds } from "./condition-algebra.ts";
import type { ComparisonOperator, PlanCondition, PlanScalar } from "./plan-condition.ts";
import { FAILS, OPAQUE, type Residual, truth, truthOf } from "./residual-value.ts";

/**
 * The comparison operators of specification 4.3 where one side is data: each becomes leaves of
 * the condition tree, with exactly the rows on which evaluation would fail (a number compared with
 * anything else) counted as neither true nor false.
 */

const isNumberAt = (pointer: string): PlanCondition => ({ op: "isType", pointer, type: "number" });
const isNullAt = (pointer: string): PlanCondition => ({ op: "isNull", pointer });

/** A known value as a constant of the tree, or undefined for null, lists, objects and numbers no double holds. */
function scalarOf(value: Value): PlanScalar | undefined {
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return value;
  if (isDecimal(value)) {
    const wire = toLeavingValue(value);
    // Only a decimal a double holds exactly as its shortest text stays exact in the tree.
    return typeof wire === "number" && String(wire) === value.toString() ? wire : undefined;
  }
  return undefined;
}

/** `eq` of two residuals (never fails by itself; a failing side fails it). */
export function equalityOf(a: Residual, b: Residual): Residual {
  if (a.kind === "error" || b.kind === "error") return FAILS;
  if (a.kind !== "pointer" && b.kind === "pointer") return equalityOf(b, a);
  if (a.kind === "pointer") {
    const pointer = a.pointer;
    if (b.kind === "pointer") {
      const leaf: PlanCondition = { op: "eq", left: { pointer }, right: { pointer: b.pointer } };
      return truth(exactly(leaf), exactly(not(leaf)));
    }
    if (b.kind === "known") {
      if (b.value === null) return truth(exactly(isNullAt(pointer)), exactly(not(isNullAt(pointer))));
      const value = scalarOf(b.value);
      if (value === undefined) return OPAQUE;
      const leaf: PlanCondition = { op: "eq", left: { pointer }, right: { value } };
      return truth(exactly(leaf), exactly(not(leaf)));
    }
    return OPAQUE;
  }
  // A boolean residual against a known boolean: itself or its negation.
  if (a.kind === "truth" && b.kind === "known" && typeof b.value === "boolean") {
    const t = truthOf(a);
    return b.value ? truth(t.whenTrue, t.whenFalse) : truth(t.whenFalse, t.whenTrue);
  }
  if (b.kind === "truth" && a.kind === "known") return equalityOf(b, a);
  // Anything else against a known value that is not a boolean: equal never, when it does not fail.
  if (a.kind === "truth" && b.kind === "known") {
    const t = truthOf(a);
    return truth(exactly(false), orBounds(t.whenTrue, t.whenFalse));
  }
  return OPAQUE;
}

const MIRRORED: Record<Exclude<ComparisonOperator, "eq">, Exclude<ComparisonOperator, "eq">> = {
  lt: "gt",
  lte: "gte",
  gt: "lt",
  gte: "lte",
};

/** `lt`, `lte`, `gt`, `gte`: both sides must be numbers, or evaluation fails. */
export function orderingOf(op: Exclude<ComparisonOperator, "eq">, a: Residual, b: Residual): Residual {
  if (a.kind === "error" || b.kind === "error") return FAILS;
  if (a.kind === "known" && !isNumberValue(a.value)) return FAILS;
  if (b.kind === "known" && !isNumberValue(b.value)) return FAILS;
  if (a.kind !== "pointer" && b.kind === "pointer") return orderingOf(MIRRORED[op], b, a);
  if (a.kind !== "pointer") return a.kind === "truth" || b.kind === "truth" ? truthFailing(a, b) : OPAQUE;
  const pointer = a.pointer;
  if (b.kind === "pointer") {
    const leaf: PlanCondition = { op, left: { pointer }, right: { pointer: b.pointer } };
    return truth(exactly(leaf), exactly(and(isNumberAt(pointer), isNumberAt(b.pointer), not(leaf))));
  }
  if (b.kind === "known") {
    const value = scalarOf(b.value);
    if (value === undefined) return OPAQUE;
    const leaf: PlanCondition = { op, left: { pointer }, right: { value } };
    return truth(exactly(leaf), exactly(and(isNumberAt(pointer), not(leaf))));
  }
  return b.kind === "truth" ? FAILS : OPAQUE;
}

/** A boolean compared by order: it fails wherever it does not fail first. */
function truthFailing(a: Residual, b: Residual): Residual {
  return a.kind === "opaque" || b.kind === "opaque" ? OPAQUE : FAILS;
}

/** `between(x, low, high)`: low <= x <= high, all numbers. */
export function betweenOf(x: Residual, low: Residual, high: Residual): Residual {
  if (x.kind !== "pointer" || low.kind !== "known" || high.kind !== "known") {
    return [x, low, high].some((side) => side.kind === "error") ? FAILS : OPAQUE;
  }
  if (!isNumberValue(low.value) || !isNumberValue(high.value)) return FAILS;
  const lo = scalarOf(low.value);
  const hi = scalarOf(high.value);
  if (lo === undefined || hi === undefined) return OPAQUE;
  const inside = and(
    { op: "gte", left: { pointer: x.pointer }, right: { value: lo } },
    { op: "lte", left: { pointer: x.pointer }, right: { value: hi } },
  );
  return truth(exactly(inside), exactly(and(isNumberAt(x.pointer), not(inside))));
}

/** `in(needle, list)` with data as the needle and a known list. */
export function membershipOf(needle: Residual, list: Residual): Residual {
  if (needle.kind === "error" || list.kind === "error") return FAILS;
  if (list.kind === "known" && !Array.isArray(list.value)) return FAILS;
  if (needle.kind !== "pointer" || list.kind !== "known") return OPAQUE;
  const pointer = needle.pointer;
  const values: PlanScalar[] = [];
  let withNull = false;
  for (const item of list.value as Value[]) {
    if (item === null) {
      withNull = true;
      continue;
    }
    const value = scalarOf(item);
    if (value === undefined) return OPAQUE;
    values.push(value);
  }
  const leaves: (PlanCondition | boolean)[] = [withNull ? isNullAt(pointer) : false];
  if (values.length === 1) leaves.push({ op: "eq", left: { pointer }, right: { value: values[0]! } });
  else if (values.length > 1) leaves.push({ op: "in", pointer, values });
  const holds = or(...leaves);
  return truth(exactly(holds), exactly(not(holds)));
}

/** `exists(x)`: x is not null. */
export function existenceOf(x: Residual): Residual {
  if (x.kind === "pointer") {
    const missing = isNullAt(x.pointer);
    return truth(exactly(not(missing)), exactly(missing));
  }
  if (x.kind === "truth") {
    const t = truthOf(x);
    return truth(orBounds(t.whenTrue, t.whenFalse), exactly(false));
  }
  return x.kind === "error" ? FAILS : OPAQUE;
}

/**
 * `empty(x)`: null, "", an empty list or object. The tree cannot say a list or an object is
 * empty, so of data that is a list or an object it is not known either way.
 */
export function emptinessOf(x: Residual): Residual {
  if (x.kind !== "pointer") return x.kind === "error" ? FAILS : OPAQUE;
  const pointer = x.pointer;
  const blank = or(isNullAt(pointer), { op: "eq", left: { pointer }, right: { value: "" } });
  const container = or({ op: "isType", pointer, type: "list" }, { op: "isType", pointer, type: "object" });
  const whenTrue: Bounds = { lower: blank, upper: or(blank, container) };
  return truth(whenTrue, { lower: not(whenTrue.upper), upper: not(whenTrue.lower) });
}
