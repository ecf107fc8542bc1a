/** Turns TypeBox value errors into plain-English schema problems. */
import { Kind, type TSchema } from "@sinclair/typebox";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { didYouMean } from "../../engine/names/closest-name.ts";
import { pointerPath } from "../source/json-pointer.ts";
import type { MemberPart } from "../source/source-position.ts";
import type { MessageOptions } from "./keywords.ts";
import { explainRefusedName } from "./name-explanations.ts";
import { PATTERN_WORDS } from "./names.ts";

export interface SchemaProblem {
  code: "SCHEMA_INVALID";
  message: string;
  /** Instance path as a JSON Pointer ("" is the document itself). */
  path: string;
  /** "key" for a member that is missing or not allowed at all: its name is the place to look. */
  part: MemberPart;
}

/** A problem while the error walk runs: `missing` marks a required member that is absent. */
interface FoundProblem extends SchemaProblem {
  missing: boolean;
}

type Schema = TSchema & MessageOptions;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A value as a message quotes it: short, in backticks. */
function quote(value: unknown): string {
  const text = describe(value) ?? String(value);
  return `\`${text.length > 60 ? `${text.slice(0, 57)}...` : text}\``;
}

/** What a message is about: the member (`severity`), the item (`operations[1]`) or the document. */
function subject(path: string): string {
  const segments = pointerPath(path);
  const last = segments[segments.length - 1];
  if (last === undefined) return "the document";
  if (/^[0-9]+$/.test(last)) return `\`${segments[segments.length - 2] ?? ""}[${last}]\``;
  return `\`${last}\``;
}

/** The message for a failed union that is not a conditional and has no chosen branch. */
function unionMessage(schema: Schema, value: unknown): string {
  if (schema.explain !== undefined) return explainRefusedName(schema.explain, value);
  if (schema.errorMessage !== undefined) return schema.errorMessage;
  const variants = (schema.anyOf ?? []) as Schema[];
  if (variants.every((variant) => variant[Kind] === "Literal")) {
    const allowed = variants.map((variant) => describe(variant.const));
    return `must be one of ${allowed.join(", ")}${typeof value === "string" ? `, not ${quote(value)}${didYouMean(value, allowed)}` : ""}`;
  }
  return "does not match any of the allowed forms";
}

/** A member the object does not allow: an unknown one (with a close known name), or a name of the wrong form. */
function unknownMemberMessage(schema: Schema, path: string): string {
  // The last segment of the instance path names the member that is not allowed.
  const name = pointerPath(path).at(-1) ?? "";
  if (schema.memberNames !== undefined)
    return `\`${name}\` cannot be a member name here: it must be ${PATTERN_WORDS.get(schema.memberNames) ?? "of another form"}`;
  const known = schema.knownMembers ?? Object.keys((schema.properties ?? {}) as object);
  return `unknown member \`${name}\`${didYouMean(name, known)}`;
}

function patternMessage(schema: Schema, pattern: string, value: unknown): string {
  if (schema.explain !== undefined) return explainRefusedName(schema.explain, value);
  if (schema.errorMessage !== undefined) return schema.errorMessage;
  return `must be ${PATTERN_WORDS.get(pattern) ?? "of another form"}, not ${quote(value)}`;
}

function plainMessage(error: ValueError): string {
  const schema = error.schema as Schema;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return schema.requiredMessage ?? "is required";
    case ValueErrorType.ObjectAdditionalProperties:
      return schema.errorMessage ?? unknownMemberMessage(schema, error.path);
    case ValueErrorType.Never:
      return schema.errorMessage ?? "is not allowed";
    case ValueErrorType.Not:
      return schema.errorMessage ?? "matches a form that is not allowed";
    case ValueErrorType.Literal:
      return (
        schema.errorMessage ??
        `must be ${describe(schema.const)}${typeof error.value === "string" ? `, not ${quote(error.value)}` : ""}`
      );
    case ValueErrorType.RegExp:
      return patternMessage(schema, String(schema.source), error.value);
    case ValueErrorType.StringPattern:
      return patternMessage(schema, String(schema.pattern), error.value);
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

/** A problem with its message phrased about its subject, unless the message already names what is wrong. */
function found(error: ValueError, message: string): FoundProblem {
  const missing = error.type === ValueErrorType.ObjectRequiredProperty;
  const notAllowed = error.type === ValueErrorType.ObjectAdditionalProperties || error.type === ValueErrorType.Never;
  const part: MemberPart = missing || notAllowed ? "key" : "value";
  const text = /^(?:is|must|does|matches) /.test(message) ? `${subject(error.path)} ${message}` : message;
  return { code: "SCHEMA_INVALID", message: text, path: error.path, part, missing };
}

function* expand(error: ValueError): Generator<FoundProblem> {
  const schema = error.schema as Schema;
  // An Intersect error only summarises the errors of its members, which were reported before it.
  if (error.type === ValueErrorType.Intersect) return;
  if (error.type === ValueErrorType.Union) {
    const variants = (schema.anyOf ?? []) as Schema[];
    // if/then: the `if` held (its `not` failed), so report what the `then` requires.
    if (schema.conditional === true && error.errors[1] !== undefined) {
      if (schema.unlessMissing !== undefined && isPlainObject(error.value) && !(schema.unlessMissing in error.value))
        return;
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
    yield found(error, unionMessage(schema, error.value));
    return;
  }
  yield found(error, plainMessage(error));
}

/** Plain-English problems for the given errors, without duplicates. A missing member is reported once, as missing. */
export function toProblems(errors: Iterable<ValueError>): SchemaProblem[] {
  const all: FoundProblem[] = [];
  for (const error of errors) all.push(...expand(error));
  const missing = new Set<string>();
  for (const error of all) if (error.missing) missing.add(error.path);
  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const { missing: isMissing, ...problem } of all) {
    if (missing.has(problem.path) && !isMissing) continue;
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  // In document order of paths (a stable sort keeps the problems of one place together).
  return problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
