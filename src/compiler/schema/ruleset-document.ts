/** The top level of a ruleset document (the root of the reference schema). */
import { Type } from "@sinclair/typebox";
import { Bindings, Overrides } from "./overrides-bindings.ts";
import { Entity, Extends, FunctionDef, Metadata, OperatorDef, Param, Scope, TypeDef } from "./declarations.ts";
import { GoldenTest } from "./golden-tests.ts";
import { Const, Enum, Extensible, MapOf, NamedRecord, Pattern } from "./keywords.ts";
import { CUSTOM_OPERATOR_PATTERN, LOCALE_PATTERN, NAME_PATTERN, RULE_CASCADE_VERSION_PATTERN } from "./names.ts";
import { Rule } from "./rule.ts";

const { Optional } = Type;

export const RulesetDocument = Extensible({
  ruleCascade: Pattern(RULE_CASCADE_VERSION_PATTERN),
  kind: Const("RuleSet"),
  metadata: Metadata,
  scope: Scope,
  extends: Optional(Type.Array(Extends, { maxItems: 1 })),
  entities: Optional(NamedRecord(NAME_PATTERN, Entity)),
  types: Optional(NamedRecord(NAME_PATTERN, TypeDef)),
  params: Optional(NamedRecord(NAME_PATTERN, Param)),
  functions: Optional(NamedRecord(NAME_PATTERN, FunctionDef)),
  operators: Optional(NamedRecord(CUSTOM_OPERATOR_PATTERN, OperatorDef)),
  rules: Type.Array(Rule),
  overrides: Optional(Overrides),
  conflictPolicy: Optional(Enum(["fail", "priority"])), // default: fail
  messages: Optional(NamedRecord(LOCALE_PATTERN, MapOf(Type.String()))),
  defaultLocale: Optional(Type.String()), // default: en
  bindings: Optional(Bindings),
  tests: Optional(Type.Array(GoldenTest)),
});
