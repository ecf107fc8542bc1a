/**
 * Building blocks that express the JSON Schema keywords of the Rule Cascade reference schema
 * with TypeBox kinds the TypeCompiler understands. Each helper notes the keyword it mirrors.
 *
 * Some helpers attach extra options (`errorMessage`, `requiredMessage`, `conditional`,
 * `branchKey`) to a schema. TypeBox keeps unknown options on the schema and ignores them when
 * checking; `problems.ts` reads them to phrase a failure in plain English.
 */
import { Type, type ObjectOptions, type SchemaOptions, type TProperties, type TSchema } from "@sinclair/typebox";
import type { NameExplanation } from "./name-explanations.ts";

/** Options `problems.ts` reads. */
export interface MessageOptions extends SchemaOptions {
  /** Message used when this schema fails (a union, a `not`, a forbidden member, a const). */
  errorMessage?: string;
  /** On a member schema: message used when that member is required and missing. */
  requiredMessage?: string;
  /** On a union variant that is an object: report this variant's problems when the value has this member. */
  branchKey?: string;
  /** Marks the union built by {@link Conditional}. */
  conditional?: true;
  /** On a conditional: do not report it for an object that lacks this (required, already reported) member. */
  unlessMissing?: string;
  /** On a schema of names: explains a refused value in plain words (and suggests a close known name). */
  explain?: NameExplanation;
  /** On a record of checked member names: the pattern they follow (described in plain words by `problems.ts`). */
  memberNames?: string;
  /** On an object that refuses unknown members: the members it knows, for "did you mean". */
  knownMembers?: readonly string[];
}

/**
 * `type: string` + `pattern`. The reference patterns are written for ECMA-262 with the `u` flag
 * (as a draft 2020-12 validator applies them), so values are checked with a `u` RegExp: TypeBox's
 * RegExp kind keeps the flags (its String kind would drop them). The String kind is kept next to
 * it because TypeBox's interpreted `Value.Check` of a RegExp kind does not check that the value is
 * a string (it would test `String(value)`), and the error walk relies on `Value.Check` for unions.
 */
export function Pattern(pattern: string, options: MessageOptions = {}): TSchema {
  return Type.Intersect([Type.String(), Type.RegExp(new RegExp(pattern, "u"), options)]);
}

/** `enum` of strings (`const` when there is one value). */
export function Enum(values: readonly string[], options: MessageOptions = {}): TSchema {
  if (values.length === 1) return Type.Literal(values[0]!, options);
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  );
}

/** `const` of a string. */
export function Const(value: string, options: MessageOptions = {}): TSchema {
  return Type.Literal(value, options);
}

/** A member schema of `false`: the member must be absent. Use inside `Type.Optional`. */
export function Forbidden(message: string): TSchema {
  return Type.Never({ errorMessage: message });
}

/** A member that only has to be present (`required` without a schema for it). */
export function Present(requiredMessage?: string): TSchema {
  return Type.Unknown(requiredMessage === undefined ? {} : { requiredMessage });
}

/** `additionalProperties: false` with `properties` (required members are those not wrapped in Type.Optional). */
export function Closed(properties: TProperties, options: ObjectOptions = {}): TSchema {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

/**
 * An extensible object: `properties` + `patternProperties: { "^x-": true }` +
 * `additionalProperties: false`. TypeBox's Object kind has no patternProperties, so the members
 * are checked by an Object and the member names by a Record whose key pattern accepts the known
 * names and `x-*`, with every other name rejected.
 */
export function Extensible(properties: TProperties, options: ObjectOptions = {}): TSchema {
  const known = Object.keys(properties).map(escapeRegExp).join("|");
  return Type.Intersect([
    Type.Object(properties, options),
    Type.Record(Type.String({ pattern: `^(?:${known})$|^x-` }), Type.Unknown(), {
      additionalProperties: false,
      knownMembers: Object.keys(properties),
    }),
  ]);
}

/**
 * `propertyNames: { pattern }` + `additionalProperties: <value>`. The member-name pattern is
 * tested by TypeBox without the `u` flag; every name pattern of the reference schema uses only
 * ASCII literals and ASCII classes (no `.`, no negated class, no `\w`/`\s`), for which the `u`
 * flag changes nothing.
 */
export function NamedRecord(namePattern: string, value: TSchema): TSchema {
  return Type.Record(Type.String({ pattern: namePattern }), value, {
    additionalProperties: false,
    memberNames: namePattern,
  });
}

/**
 * `type: object` + `additionalProperties: <value>`: every member is checked. (TypeBox's plain
 * string key pattern `^(.*)$` does not match names containing a line break, and unmatched names
 * would go unchecked; `[\s\S]` matches every name.)
 */
export function MapOf(value: TSchema): TSchema {
  return Type.Record(Type.String({ pattern: "^[\\s\\S]*$" }), value);
}

/**
 * `if` / `then` (no `else`): valid when `if` fails or `then` holds, i.e. `anyOf: [not if, then]`.
 * `problems.ts` reports the failures of `then` when the union fails. An `if` that only tests a
 * member's value also holds when the member is absent; `unlessMissing` names such a member so a
 * missing one is reported once (as required elsewhere) instead of as every `then` at once.
 */
export function Conditional(ifSchema: TSchema, thenSchema: TSchema, unlessMissing?: string): TSchema {
  return Type.Union(
    [Type.Not(ifSchema), thenSchema],
    unlessMissing === undefined ? { conditional: true } : { conditional: true, unlessMissing },
  );
}
