/** Ruleset-level declarations: `$defs/Metadata`, `Scope`, `Extends`, `Entity`, `TypeDef`, `Param`, `FunctionDef`, `OperatorDef`. */
import { Type } from "@sinclair/typebox";
import { Expr } from "./expression.ts";
import { Closed, Conditional, Const, Enum, Extensible, MapOf, NamedRecord, Pattern, Present } from "./keywords.ts";
import { CHECKSUM_PATTERN, Id, Name, POINTER_PATTERN, SemVer, Slug, VERSION_RANGE_PATTERN } from "./names.ts";

const { Optional } = Type;

/**
 * `format: "date-time"` is an annotation here, as in a draft 2020-12 validator by default: any
 * string is accepted. (TypeBox would assert a `format` option, so it is recorded under another name.)
 */
const DateTime = Type.String({ formatAnnotation: "date-time" });

export const Metadata = Extensible({
  id: Id,
  version: SemVer,
  title: Type.String(),
  description: Optional(Type.String()),
  owner: Optional(Type.String()),
  status: Optional(Enum(["draft", "active", "deprecated", "retired"])), // default: draft
  effective: Optional(Closed({ from: Optional(DateTime), until: Optional(DateTime) })),
  labels: Optional(MapOf(Type.String())),
});

export const Scope = Type.Array(Extensible({ level: Name, id: Slug }), { minItems: 1 });

export const Extends = Extensible({
  ruleset: Id,
  version: Pattern(VERSION_RANGE_PATTERN),
  checksum: Optional(Pattern(CHECKSUM_PATTERN)),
});

export const Entity = Extensible({
  description: Optional(Type.String()),
  schema: Closed({ $ref: Type.String() }),
  fieldTypes: Optional(NamedRecord(POINTER_PATTERN, Name)),
});

export const TypeDef = Extensible({
  description: Optional(Type.String()),
  base: Optional(Enum(["string", "number", "integer", "boolean", "array", "object"])),
});

export const Param = Type.Intersect([
  Extensible({
    type: Enum(["string", "number", "integer", "boolean", "stringList", "numberList"]),
    default: Present(),
    description: Optional(Type.String()),
    overridePolicy: Optional(Enum(["locked", "tighten-only", "open"])), // default: open
    tightenDirection: Optional(Enum(["lower", "higher"])),
  }),
  Conditional(
    Type.Object({ overridePolicy: Const("tighten-only") }),
    Type.Object({
      tightenDirection: Present("is required when overridePolicy is tighten-only"),
      type: Optional(
        Enum(["number", "integer"], { errorMessage: "must be number or integer when overridePolicy is tighten-only" }),
      ),
    }),
  ),
]);

export const FunctionDef = Extensible({
  description: Optional(Type.String()),
  params: Type.Array(Name, { uniqueItems: true }),
  body: Expr,
});

export const OperatorDef = Extensible({
  description: Type.String(),
  args: Optional(Type.Integer({ minimum: 0 })),
});
