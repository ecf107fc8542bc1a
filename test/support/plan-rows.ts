import type { JsonObject, JsonValue } from "../../src/engine/value/json-value.ts";
import type { PlanCondition } from "../../src/engine/plan/plan-condition.ts";
import { pointerKeys } from "../../src/engine/plan/data-pointer.ts";

/**
 * Rows for the plans' differential tests: a base row (a golden case's data) and variants of it
 * at every pointer a plan's condition or the base names: the member gone, null, each constant of
 * the condition and its numeric neighbours, and values of every other type.
 */
export function planRows(given: JsonValue, condition: PlanCondition | undefined, limit = 400): JsonValue[] {
  // Data that is not an object is refused for its shape: the variants start from an empty object.
  const base = typeof given === "object" && given !== null && !Array.isArray(given) ? given : {};
  const pointers = new Set<string>([...leafPointers(base, ""), ...conditionPointers(condition)]);
  const constants = conditionConstants(condition);
  const candidates: (JsonValue | undefined)[] = [
    undefined,
    null,
    "",
    "x",
    true,
    false,
    0,
    -1,
    1.5,
    [],
    {},
    [1],
    { a: 1 },
  ];
  for (const constant of constants) {
    candidates.push(constant);
    if (typeof constant === "number") candidates.push(constant - 1, constant + 0.5, constant + 1, String(constant));
  }
  const rows: JsonValue[] = [base];
  for (const pointer of [...pointers].sort()) {
    for (const value of candidates) {
      rows.push(withValueAt(base, pointer, value));
      if (rows.length >= limit) return rows;
    }
  }
  return rows;
}

function leafPointers(value: JsonValue, pointer: string): string[] {
  if (value === null || typeof value !== "object") return pointer === "" ? [] : [pointer];
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  const below = entries.flatMap(([key, item]) =>
    leafPointers(item, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`),
  );
  return pointer === "" ? below : [pointer, ...below];
}

function conditionPointers(condition: PlanCondition | undefined): string[] {
  if (condition === undefined) return [];
  switch (condition.op) {
    case "and":
    case "or":
      return condition.args.flatMap(conditionPointers);
    case "not":
      return conditionPointers(condition.arg);
    case "in":
    case "isNull":
    case "isType":
      return [condition.pointer];
    default:
      return [condition.left.pointer, ...("pointer" in condition.right ? [condition.right.pointer] : [])];
  }
}

function conditionConstants(condition: PlanCondition | undefined): JsonValue[] {
  if (condition === undefined) return [];
  switch (condition.op) {
    case "and":
    case "or":
      return condition.args.flatMap(conditionConstants);
    case "not":
      return conditionConstants(condition.arg);
    case "in":
      return [...condition.values];
    case "isNull":
    case "isType":
      return [];
    default:
      return "value" in condition.right ? [condition.right.value] : [];
  }
}

/** A copy of `base` with the value at a pointer replaced (undefined: removed), making objects on the way. */
export function withValueAt(base: JsonValue, pointer: string, value: JsonValue | undefined): JsonValue {
  const keys = pointerKeys(pointer);
  const copy = structuredClone(base ?? {}) as JsonValue;
  if (keys.length === 0) return value === undefined ? {} : value;
  let parent: JsonValue = copy;
  for (const key of keys.slice(0, -1)) {
    const container = parent as JsonObject;
    if (container[key] === null || typeof container[key] !== "object") container[key] = {};
    parent = container[key]!;
  }
  const last = keys[keys.length - 1]!;
  if (Array.isArray(parent)) {
    const index = Number(last);
    if (value === undefined) parent.splice(index, 1);
    else parent[index] = value;
  } else if (value === undefined) delete (parent as JsonObject)[last];
  else (parent as JsonObject)[last] = value;
  return copy;
}
