/** The parts of a rule: `$defs/Target`, `FindingSpec`, `Acceptance`, `StateEffect`, `Assignment`, `Command`. */
import { Type } from "@sinclair/typebox";
import { Expr } from "./expression.ts";
import { Closed, Enum, Extensible, MapOf, Pattern, Present } from "./keywords.ts";
import { COMMAND_NAME_PATTERN, DURATION_PATTERN, FINDING_CODE_PATTERN, Name, Pointer, Slug } from "./names.ts";

const { Optional } = Type;

/**
 * What a rule is about: an entity (optionally narrowed to a view place and field(s)) or a type.
 * `anyOf: [required entity, required type]` and `not: anyOf: [field+fields, type+field, type+fields]`.
 */
export const Target = Type.Intersect([
  Extensible({
    entity: Optional(Name),
    type: Optional(Name),
    page: Optional(Slug),
    screen: Optional(Slug),
    section: Optional(Slug),
    component: Optional(Slug),
    field: Optional(Pointer),
    fields: Optional(Type.Array(Pointer, { minItems: 1 })),
  }),
  Type.Union([Type.Object({ entity: Present() }), Type.Object({ type: Present() })], {
    errorMessage: "must name an entity or a type",
  }),
  Type.Not(
    Type.Union([
      Type.Object({ field: Present(), fields: Present() }),
      Type.Object({ type: Present(), field: Present() }),
      Type.Object({ type: Present(), fields: Present() }),
    ]),
    { errorMessage: "must not combine field with fields, nor type with field or fields" },
  ),
]);

export const FindingSpec = Extensible({
  code: Pattern(FINDING_CODE_PATTERN),
  message: Type.String(),
  args: Optional(MapOf(Expr)),
});

export const Acceptance = Extensible({
  allowed: Type.Boolean(),
  roles: Optional(Type.Array(Type.String())),
  justification: Optional(Enum(["none", "required"])), // default: required (annotation)
  expiresAfter: Optional(Pattern(DURATION_PATTERN)),
});

export const StateEffect = Closed({
  field: Pointer,
  set: Extensible(
    {
      visible: Optional(Type.Boolean()),
      enabled: Optional(Type.Boolean()),
      required: Optional(Type.Boolean()),
      readOnly: Optional(Type.Boolean()),
    },
    { minProperties: 1 },
  ),
});

export const Assignment = Closed({
  field: Pointer,
  value: Expr,
  mode: Optional(Enum(["default", "always"])), // default: default (annotation)
});

export const Command = Extensible({
  name: Pattern(COMMAND_NAME_PATTERN),
  type: Enum(["event", "operation"]),
  ref: Optional(Type.String()),
  payload: Optional(MapOf(Expr)),
  idempotencyKey: Type.Array(Expr, { minItems: 1 }),
});
