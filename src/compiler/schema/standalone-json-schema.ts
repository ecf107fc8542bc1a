import { Kind, type TSchema } from "@sinclair/typebox";
import type { JsonObject, JsonValue } from "../../engine/value/json-value.ts";
import { Expr } from "./expression.ts";
import { RulesetDocument } from "./ruleset-document.ts";

/**
 * The schema the compiler validates ruleset sources with, as a standalone JSON Schema (draft
 * 2020-12) document for editors: `rule-server schema > rule-cascade.schema.json`. TypeBox schemas
 * are JSON Schema already, apart from what is converted here: its RegExp kind becomes `pattern`,
 * the recursive expression schema is written once under `$defs`, and the options only our
 * messages read are left out. Sources may write an expression as text (`{expr: "..."}`, read into
 * the tree before the compiler's schema sees it): the editors' schema accepts that form too.
 */
const STANDALONE_SCHEMA_ID = "urn:rule-server:schema:ruleset-source:1.0";

/** Options that phrase problems (keywords.ts); a JSON Schema reader has no use for them. */
const MESSAGE_OPTIONS = new Set([
  "errorMessage",
  "requiredMessage",
  "branchKey",
  "conditional",
  "unlessMissing",
  "explain",
  "memberNames",
  "knownMembers",
]);
const EXPR_REF = "#/$defs/Expr";

export function standaloneRulesetSchema(): JsonObject {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: STANDALONE_SCHEMA_ID,
    title: "Rule Cascade 1.0 ruleset source",
    ...(convert(RulesetDocument, true) as JsonObject),
    $defs: { Expr: withTextForm(convert(Expr, false) as JsonObject) },
  };
}

/** An expression written as text: the object holds its text alone. */
const EXPRESSION_TEXT: JsonObject = {
  type: "object",
  description: "An expression written as text (rule-server's authoring form; see its README)",
  properties: { expr: { type: "string" } },
  required: ["expr"],
  additionalProperties: false,
};

function withTextForm(expression: JsonObject): JsonObject {
  if (!Array.isArray(expression.anyOf)) throw new Error("the expression schema is no longer a union");
  return { ...expression, anyOf: [...expression.anyOf, EXPRESSION_TEXT] };
}

function convert(schema: unknown, replaceExpr: boolean): JsonValue {
  if (Array.isArray(schema)) return schema.map((item) => convert(item, true));
  if (typeof schema !== "object" || schema === null) return schema as JsonValue;
  const typed = schema as TSchema;
  // TypeBox copies a schema where it is used, so the expression schema is known by its $id.
  if (replaceExpr && typed.$id === Expr.$id) return { $ref: EXPR_REF };
  if (typed[Kind] === "RegExp") return { type: "string", pattern: String(typed.source) };
  // Inside the expression schema, TypeBox refers to itself by its $id.
  if (typed.$ref === Expr.$id) return { $ref: EXPR_REF };
  const converted: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (MESSAGE_OPTIONS.has(key) || (key === "$id" && value === Expr.$id) || typeof value === "function") continue;
    if (key === "formatAnnotation") converted.format = value as string;
    else converted[key] = convert(value, true);
  }
  return converted;
}
