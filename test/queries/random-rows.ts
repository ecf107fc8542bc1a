import { pointerKeys } from "../../src/engine/plan/data-pointer.ts";
import type { JsonObject, JsonValue } from "../../src/engine/value/json-value.ts";
import { NUMBERS, pick, type Random, randomScalar } from "./random-conditions.ts";

/**
 * Seeded random rows' data for the differential tests: at each pointer a condition reads, the
 * member missing, null, or a number, a string, a boolean, a list or an object (a key of digits
 * then an index or a key), and around them other members; the data itself mostly an object. A pointer read from a column of its
 * own holds only what the column can: null, missing, or the column's type.
 */
export type ValueRestriction = "number" | "string" | "boolean" | "numberOrString";

interface KeyTree {
  readonly children: Map<string, KeyTree>;
  restriction?: ValueRestriction;
}

export function randomRows(
  random: Random,
  count: number,
  pointers: readonly string[],
  strings: readonly string[],
  restrictions: Readonly<Record<string, ValueRestriction>> = {},
): JsonValue[] {
  const tree = keyTree(pointers, restrictions);
  // Mostly objects; sometimes a list (digit keys then index it), a scalar, or null.
  return Array.from({ length: count }, () =>
    random() < 0.85 ? randomObject(random, tree, strings) : (randomValue(random, tree, strings) ?? null),
  );
}

function keyTree(pointers: readonly string[], restrictions: Readonly<Record<string, ValueRestriction>>): KeyTree {
  const root: KeyTree = { children: new Map() };
  for (const pointer of pointers) {
    let node = root;
    for (const key of pointerKeys(pointer)) {
      let child = node.children.get(key);
      if (child === undefined) {
        child = { children: new Map() };
        node.children.set(key, child);
      }
      node = child;
    }
    if (Object.hasOwn(restrictions, pointer)) node.restriction = restrictions[pointer];
  }
  return root;
}

/** A value for a node of the tree; undefined when the member is to be missing. */
function randomValue(random: Random, tree: KeyTree, strings: readonly string[]): JsonValue | undefined {
  const roll = random();
  if (roll < 0.12) return undefined;
  if (roll < 0.22) return null;
  if (tree.restriction !== undefined) return restrictedScalar(random, tree.restriction, strings);
  if (roll < 0.55 || (tree.children.size === 0 && roll < 0.8)) return randomScalar(random, strings);
  if (roll < 0.78) return randomList(random, tree, strings);
  return randomObject(random, tree, strings);
}

function restrictedScalar(random: Random, restriction: ValueRestriction, strings: readonly string[]): JsonValue {
  switch (restriction) {
    case "number":
      return pick(random, NUMBERS);
    case "string":
      return pick(random, strings);
    case "boolean":
      return random() < 0.5;
    case "numberOrString":
      return random() < 0.5 ? pick(random, NUMBERS) : pick(random, strings);
  }
}

/** A list: the tree's digit keys are indexes in it; it is sometimes shorter than they reach. */
function randomList(random: Random, tree: KeyTree, strings: readonly string[]): JsonValue[] {
  const length = Math.floor(random() * 4);
  return Array.from({ length }, (_, index) => {
    const child = tree.children.get(String(index));
    return (child === undefined ? undefined : randomValue(random, child, strings)) ?? randomScalar(random, strings);
  });
}

function randomObject(random: Random, tree: KeyTree, strings: readonly string[]): JsonObject {
  const object: JsonObject = {};
  for (const [key, child] of tree.children) {
    const value = randomValue(random, child, strings);
    if (value !== undefined) object[key] = value;
  }
  if (random() < 0.2) object.extra = randomScalar(random, strings);
  // Equal by value, not by text: lists and objects that eq must compare member by member.
  if (random() < 0.1) return Object.fromEntries(Object.entries(object).reverse());
  return object;
}

/** A row's data column: its JSON text (variedJson), or NULL for some rows whose data is null. */
export function dataText(random: Random, data: JsonValue): string | null {
  return data === null && random() < 0.5 ? null : variedJson(random, data);
}

/**
 * JSON text of a value, its numbers and strings spelt as other writers do: `1` as `1.0` or `1e0`,
 * `1.1` as `1.10`, characters as \u escapes. Databases must read them as the same values.
 */
export function variedJson(random: Random, value: JsonValue): string {
  if (value === null || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") return variedNumber(random, value);
  if (typeof value === "string") return variedString(random, value);
  if (Array.isArray(value)) return `[${value.map((item) => variedJson(random, item)).join(",")}]`;
  const members = Object.entries(value).map(
    ([key, item]) => `${variedString(random, key)}:${variedJson(random, item)}`,
  );
  return `{${members.join(",")}}`;
}

function variedNumber(random: Random, value: number): string {
  const text = JSON.stringify(value);
  if (random() < 0.5 || text.includes("e")) return text;
  if (Number.isInteger(value)) return random() < 0.5 ? `${text}.0` : `${text}e0`;
  return `${text}0`;
}

function variedString(random: Random, value: string): string {
  if (random() < 0.7) return JSON.stringify(value);
  const escaped = [...value].map((character) =>
    character.charCodeAt(0) > 0x7e || character === "'"
      ? Array.from(
          { length: character.length },
          (_, unit) => `\\u${character.charCodeAt(unit).toString(16).padStart(4, "0")}`,
        ).join("")
      : JSON.stringify(character).slice(1, -1),
  );
  return `"${escaped.join("")}"`;
}
