import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Rule } from "./rule.ts";
import { RulesetDocument } from "./ruleset-document.ts";

/**
 * The schemas values are checked against with compiled code, by name, and that code: built here
 * from the TypeBox schemas as the module loads. The release executable holds another module in
 * place of this one, written at build time (src/bundling/prebuilt-checkers.ts): the code generated
 * ahead, and the schemas written out as data, made only when a value fails and its problems are
 * wanted. Generating the code took a fifth of the executable's start-up on the rules/ example,
 * building the schemas another ~23 ms. What the executable's module exports: `checkedSchema` and
 * `checkerCode`.
 */
export const CHECKED_SCHEMAS = { RulesetDocument, Rule } as const;

export type CheckedSchemaName = keyof typeof CHECKED_SCHEMAS;

/** A checked schema: what the problems of a value that fails are found with. */
export function checkedSchema(name: CheckedSchemaName): TSchema {
  return CHECKED_SCHEMAS[name];
}

/** The code TypeCompiler generates to check a schema: what compileChecker runs. */
export function checkerCode(name: CheckedSchemaName): string {
  return TypeCompiler.Code(CHECKED_SCHEMAS[name], [], { language: "javascript" });
}
