/** Turns TypeBox value errors into plain-English schema problems. */
import { Kind, type TSchema } from "@sinclair/typebox";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import type { MessageOptions } from "./keywords.ts";

export interface SchemaProblem {
  code: "SCHEMA_INVALID";
  message: string;
  /** Instance path as a JSON Pointer ("" is the document itself). */
  path: string;
}

type Schema = TSchema & MessageOptions;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The message for a failed union that is not a conditional and has no chosen branch. */
function unionMessage(schema: Schema): string {
  if (schema.errorMessage !== undefined) return schema.errorMessage;
  const variants = (schema.anyOf ?? []) as Schema[];
  if (variants.every((variant) => variant[Kind] === "Literal")) {
    return `must be one of ${variants.map((variant) => describe(variant.const)).join(", ")}`;
  }
  return "does not match any of the allowed forms";
}

function plainMessage(error: ValueError): string {
  const schema = error.schema as Schema;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return schema.requiredMessage ?? "is required";
    case ValueErrorType.ObjectAdditionalProperties:
      return schema.errorMessage ?? "is not allowed (unknown member)";
    case ValueErrorType.Never:
      return schema.errorMessage ?? "is not allowed";
    case ValueErrorType.Not:
      return schema.errorMessage ?? "matches a form that is not allowed";
    case ValueErrorType.Literal:
      return schema.errorMessage ?? `must be ${describe(schema.const)}`;
    case ValueErrorType.RegExp:
      return schema.errorMessage ?? `must match ${String(schema.source)}`;
    case ValueErrorType.StringPattern:
      return `must match ${String(schema.pattern)}`;
    case ValueErrorType.String:
      return "must be a string";
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1 ? "must not be empty" : `must be at least ${schema.minLength} characters long`;
    case ValueErrorType.Number:
      return "must be a number";
    case ValueErrorType.Integer:
      return "must be an integer";
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `must be greater than or equal to ${schema.minimum}`;
    case ValueErrorType.Boolean:
      return "must be a boolean";
    case ValueErrorType.Null:
      return "must be null";
    case ValueErrorType.Object:
      return "must be an object";
    case ValueErrorType.ObjectMinProperties:
      return `must have at least ${schema.minProperties} member${schema.minProperties === 1 ? "" : "s"}`;
    case ValueErrorType.Array:
      return "must be an array";
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${schema.minItems} item${schema.minItems === 1 ? "" : "s"}`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${schema.maxItems} item${schema.maxItems === 1 ? "" : "s"}`;
    case ValueErrorType.ArrayUniqueItems:
      return "must not contain duplicate items";
    default:
      return error.message;
  }
}

function* expand(error: ValueError): Generator<SchemaProblem> {
  const schema = error.schema as Schema;
  // An Intersect error only summarises the errors of its members, which were reported before it.
  if (error.type === ValueErrorType.Intersect) return;
  if (error.type === ValueErrorType.Union) {
    const variants = (schema.anyOf ?? []) as Schema[];
    // if/then: the `if` held (its `not` failed), so report what the `then` requires.
    if (schema.conditional === true && error.errors[1] !== undefined) {
      if (schema.unlessMissing !== undefined && isPlainObject(error.value) && !(schema.unlessMissing in error.value)) return;
      for (const inner of error.errors[1]) yield* expand(inner);
      return;
    }
    // A union of object forms told apart by a member (an expression's var / op / fn).
    if (isPlainObject(error.value)) {
      const value = error.value;
      const index = variants.findIndex((variant) => variant.branchKey !== undefined && variant.branchKey in value);
      const branch = index < 0 ? undefined : error.errors[index];
      if (branch !== undefined) {
        for (const inner of branch) yield* expand(inner);
        return;
      }
    }
    yield { code: "SCHEMA_INVALID", message: unionMessage(schema), path: error.path };
    return;
  }
  yield { code: "SCHEMA_INVALID", message: plainMessage(error), path: error.path };
}

/** Plain-English problems for the given errors, without duplicates. A missing member is reported once, as missing. */
export function toProblems(errors: Iterable<ValueError>): SchemaProblem[] {
  const all: SchemaProblem[] = [];
  for (const error of errors) all.push(...expand(error));
  const missing = new Set<string>();
  for (const error of all) if (error.message.startsWith("is required")) missing.add(error.path);
  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const problem of all) {
    if (missing.has(problem.path) && !problem.message.startsWith("is required")) continue;
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  // In document order of paths (a stable sort keeps the problems of one place together).
  return problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
