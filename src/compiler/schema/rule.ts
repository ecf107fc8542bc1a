/** `$defs/Rule`: the members of a rule and the `allOf` of `if`/`then` constraints that tie them to its kind. */
import { Type, type TProperties, type TSchema } from "@sinclair/typebox";
import { Expr } from "./expression.ts";
import { Conditional, Const, Enum, Extensible, Forbidden, Pattern, Present } from "./keywords.ts";
import { Id, OPERATION_PATTERN, Pointer, RULE_KINDS } from "./names.ts";
import { Acceptance, Assignment, Command, FindingSpec, StateEffect, Target } from "./rule-parts.ts";

const { Optional } = Type;

const SEVERITIES = ["info", "warning", "error"] as const;

export const RuleMembers = Extensible({
  id: Id,
  kind: Type.Union([Enum(RULE_KINDS), Pattern("^x-")], {
    errorMessage: `must be one of ${RULE_KINDS.join(", ")}, or start with x- for a custom kind`,
    explain: "rule-kind",
  }),
  title: Optional(Type.String()),
  description: Optional(Type.String()),
  target: Target,
  operations: Type.Array(Pattern(OPERATION_PATTERN), { minItems: 1, uniqueItems: true }),
  triggers: Optional(Type.Array(Enum(["load", "change", "blur", "submit"]), { uniqueItems: true })), // default: [submit]
  enforcement: Optional(Enum(["client", "server", "both"])), // default: both
  forEach: Optional(Pointer),
  when: Optional(Expr),
  priority: Optional(Type.Integer()), // default: 0
  enabled: Optional(Type.Boolean()), // default: true
  overridePolicy: Optional(Enum(["locked", "tighten-only", "open"])), // default: tighten-only
  tags: Optional(Type.Array(Type.String())),
  assert: Optional(Expr),
  severity: Optional(Enum(SEVERITIES)),
  finding: Optional(FindingSpec),
  acknowledgement: Optional(Enum(["none", "required"])), // default: none
  acceptance: Optional(Acceptance),
  effects: Optional(Type.Array(StateEffect, { minItems: 1 })),
  assign: Optional(Type.Array(Assignment, { minItems: 1 })),
  commands: Optional(Type.Array(Command, { minItems: 1 })),
});

/** `if: { properties: { kind: { const } } }`: holds when kind is that value or absent. */
function KindIs(kind: string): TSchema {
  return Type.Object({ kind: Optional(Const(kind)) });
}

/** `then: { required: [...], properties: { <member>: false, ... } }` for a kind. */
function KindThen(
  kind: string,
  required: readonly string[],
  forbidden: readonly string[],
  extra: TProperties = {},
): TSchema {
  const properties: TProperties = {};
  for (const name of required) properties[name] = Present(`is required when kind is ${kind}`);
  for (const name of forbidden) properties[name] = Optional(Forbidden(`is not allowed when kind is ${kind}`));
  return Type.Object({ ...properties, ...extra });
}

const NOT_FOR_VALIDATION = ["effects", "assign", "commands"];
const VALIDATION_ONLY = ["assert", "severity", "finding", "acceptance", "acknowledgement"];

export const Rule = Type.Intersect([
  RuleMembers,
  Conditional(
    KindIs("validation"),
    KindThen("validation", ["assert", "severity", "finding"], NOT_FOR_VALIDATION),
    "kind",
  ),
  Conditional(
    KindIs("state"),
    KindThen("state", ["when", "effects"], [...VALIDATION_ONLY, "assign", "commands"]),
    "kind",
  ),
  Conditional(KindIs("compute"), KindThen("compute", ["assign"], [...VALIDATION_ONLY, "effects", "commands"]), "kind"),
  Conditional(
    KindIs("action"),
    KindThen("action", ["commands"], [...VALIDATION_ONLY, "effects", "assign", "forEach"], {
      enforcement: Const("server", {
        requiredMessage: "is required when kind is action",
        errorMessage: "must be server when kind is action",
      }),
    }),
    "kind",
  ),
  Conditional(
    Type.Object({ acceptance: Present() }),
    Type.Object({ severity: Optional(Const("error", { errorMessage: "must be error when acceptance is given" })) }),
  ),
  Conditional(
    Type.Object({ acknowledgement: Const("required") }),
    Type.Object({
      severity: Optional(Const("warning", { errorMessage: "must be warning when acknowledgement is required" })),
    }),
  ),
  Conditional(
    Type.Object({ target: Type.Object({ type: Present() }) }),
    Type.Object({
      kind: Optional(Const("validation", { errorMessage: "must be validation when the target is a type" })),
      forEach: Optional(Forbidden("is not allowed when the target is a type")),
    }),
  ),
]);
