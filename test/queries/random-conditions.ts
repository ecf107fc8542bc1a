import type {
  ComparisonOperator,
  PlanCondition,
  PlanScalar,
  PlanValueType,
} from "../../src/engine/plan/plan-condition.ts";
import { COMPARISON_OPERATORS, PLAN_VALUE_TYPES } from "../../src/engine/plan/plan-condition.ts";
import type { Random } from "../support/seeded-random.ts";

export { type Random, seededRandom } from "../support/seeded-random.ts";

/**
 * Seeded random plan conditions for the translations' differential tests: every node type over a
 * handful of pointers, with constants that rows also hold, so that comparisons do match.
 */

/**
 * The pointers the databases' fuzzing reads: the whole data, empty and digit keys, nested members,
 * list indexes (and keys like indexes that are not), and keys with quotes, dots, brackets and `~1`.
 */
export const FUZZ_POINTERS: readonly string[] = [
  "",
  "/",
  "/0",
  "/a",
  "/a/b",
  "/n",
  "/s",
  "/m",
  "/items/0",
  "/items/1",
  "/items/-1",
  "/o/0",
  '/we"ird.key[0]',
  "/t~1x",
];

/** The seed of a test file's fuzzing: QUERIES_FUZZ_SEED, else a fixed one. Failures print it. */
export function fuzzSeed(): number {
  return Number(process.env.QUERIES_FUZZ_SEED ?? 20260704);
}

export function pick<T>(random: Random, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** Numbers: integers, decimals (0.1 and 1.1 have no exact double), negatives, large, past 2^53. */
export const NUMBERS: readonly number[] = [
  0,
  1,
  -1,
  3,
  10,
  0.1,
  1.1,
  2.5,
  -2.5,
  -0.001,
  123456789.125,
  2 ** 53,
  1e21,
  -1e-7,
];

/** Strings: empty, case, accents (composed and not), quotes, emoji, and ones that look like other types. */
export const STRINGS: readonly string[] = [
  "",
  "a",
  "A",
  "é",
  "e\u0301",
  'q"uote',
  "it's",
  "😀",
  "1",
  "true",
  "null",
  " ",
  "x;y",
];

/** A NUL inside a string: SQLite holds it, PostgreSQL's text and jsonb cannot. */
export const NUL_STRING = "x\u0000y";

export interface ConditionSpace {
  /** The pointers conditions read. */
  readonly pointers: readonly string[];
  readonly strings: readonly string[];
  /** Whether a comparison may compare these two pointers (Prisma: never; SQLite's eq: not two JSON ones). */
  readonly pointerPairs?: (op: ComparisonOperator, left: string, right: string) => boolean;
}

export function randomScalar(random: Random, strings: readonly string[]): PlanScalar {
  const roll = random();
  if (roll < 0.45) return pick(random, NUMBERS);
  if (roll < 0.85) return pick(random, strings);
  return random() < 0.5;
}

export function randomCondition(random: Random, space: ConditionSpace, depth = 3): PlanCondition {
  const roll = random();
  if (depth > 0 && roll < 0.3) {
    const count = 2 + Math.floor(random() * 2);
    const args = Array.from({ length: count }, () => randomCondition(random, space, depth - 1));
    return { op: random() < 0.5 ? "and" : "or", args };
  }
  if (depth > 0 && roll < 0.42) return { op: "not", arg: randomCondition(random, space, depth - 1) };
  return randomLeaf(random, space);
}

function randomLeaf(random: Random, space: ConditionSpace): PlanCondition {
  const pointer = pick(random, space.pointers);
  const roll = random();
  if (roll < 0.1) return { op: "isNull", pointer };
  if (roll < 0.22) return { op: "isType", pointer, type: pick<PlanValueType>(random, PLAN_VALUE_TYPES) };
  if (roll < 0.35) {
    const count = 2 + Math.floor(random() * 3);
    return { op: "in", pointer, values: Array.from({ length: count }, () => randomScalar(random, space.strings)) };
  }
  const op = pick<ComparisonOperator>(random, COMPARISON_OPERATORS);
  if (roll < 0.5) {
    const right = pick(random, space.pointers);
    if (space.pointerPairs?.(op, pointer, right) ?? true) return { op, left: { pointer }, right: { pointer: right } };
  }
  // Ordering mostly against numbers, so that it can be true.
  const value = op === "eq" || random() < 0.2 ? randomScalar(random, space.strings) : pick(random, NUMBERS);
  return { op, left: { pointer }, right: { value } };
}

/** Every node of a condition, itself first. */
export function conditionNodes(condition: PlanCondition): PlanCondition[] {
  switch (condition.op) {
    case "and":
    case "or":
      return [condition, ...condition.args.flatMap(conditionNodes)];
    case "not":
      return [condition, ...conditionNodes(condition.arg)];
    default:
      return [condition];
  }
}
