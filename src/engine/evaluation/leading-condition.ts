import { callArguments, operatorOf, variablePath } from "../expression/expression-shape.ts";
import type { ValueObject } from "../value/value-kind.ts";
import type { PreparedRule } from "./prepared-rule.ts";

/**
 * What a rule's `when` starts with, read from the manifest when a plan indexes its rules
 * (applicability-index.ts): the part of the condition that, when false, makes the whole `when`
 * false, whatever follows. That is the `when` itself, or the first argument of an `and` (which
 * stops at its first false argument).
 */

/** A literal whose deep equality (valuesEqual) with any value a Map lookup decides; numbers only for plain numbers. */
export type IndexedLiteral = string | number | boolean | null;

/** `{"op": "eq", "args": [{"var": root.path}, literal]}`, either way round, on a root a request fixes. */
export interface EqualityCondition {
  readonly kind: "equality";
  /** The `var` path, root included, read as the expression reads it. */
  readonly variable: string;
  readonly literal: IndexedLiteral;
}

/** Any other leading condition: rules whose `key` is the same evaluate the same expression at the same depth. */
export interface SharedCondition {
  readonly kind: "shared";
  readonly key: string;
  /** The `when`, or an `and` of its first argument alone (the argument then sits at its depth in the rule). */
  readonly expression: unknown;
}

export type LeadingCondition = EqualityCondition | SharedCondition;

/**
 * The roots that stay the same for a whole request once compute rules are done (`data` changes
 * while they run): unlike `item`, `value` and `field`, they do not depend on the item or field a rule is at.
 */
const REQUEST_ROOTS: ReadonlySet<string> = new Set(["data", "original", "actor", "ctx", "params"]);

/** The leading condition of a rule with a `when`; undefined for a rule without one. */
export function leadingCondition(rule: PreparedRule): LeadingCondition | undefined {
  if (rule.when === undefined) return undefined;
  const when: unknown = rule.source.when ?? null;
  const first = firstConjunct(when);
  const equality = equalityCondition(first ?? when);
  if (equality !== undefined) return equality;
  const expression = first === undefined ? when : { op: "and", args: [first] };
  return { kind: "shared", key: JSON.stringify(expression), expression };
}

function asCall(expression: unknown): { name: string; args: readonly unknown[] } | undefined {
  if (typeof expression !== "object" || expression === null || Array.isArray(expression)) return undefined;
  const args = callArguments(expression as ValueObject);
  const name = args === undefined ? undefined : operatorOf(expression as ValueObject);
  return name === undefined ? undefined : { name, args: args! };
}

/** The first argument of a well-formed `and` with at least one argument. */
function firstConjunct(expression: unknown): unknown {
  const call = asCall(expression);
  return call !== undefined && call.name === "and" && call.args.length > 0 ? call.args[0] : undefined;
}

function equalityCondition(expression: unknown): EqualityCondition | undefined {
  const call = asCall(expression);
  if (call === undefined || call.name !== "eq" || call.args.length !== 2) return undefined;
  const [a, b] = call.args;
  return equalityOf(a, b) ?? equalityOf(b, a);
}

function equalityOf(variable: unknown, literal: unknown): EqualityCondition | undefined {
  if (typeof variable !== "object" || variable === null || Array.isArray(variable)) return undefined;
  const path = variablePath(variable as ValueObject);
  if (path === undefined || !REQUEST_ROOTS.has(path.split(".")[0]!) || !isIndexedLiteral(literal)) return undefined;
  return { kind: "equality", variable: path, literal };
}

/** JSON literals only: a manifest holds no exact decimals, and its numbers are finite. */
function isIndexedLiteral(value: unknown): value is IndexedLiteral {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isFinite(value))
  );
}
