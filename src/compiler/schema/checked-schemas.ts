import { TypeCompiler } from "@sinclair/typebox/compiler";
import { PREBUILT_CHECKER_CODE } from "./prebuilt-checker-code.ts";
import { Rule } from "./rule.ts";
import { RulesetDocument } from "./ruleset-document.ts";

/** The schemas values are checked against with compiled code, by name. */
export const CHECKED_SCHEMAS = { RulesetDocument, Rule } as const;

export type CheckedSchemaName = keyof typeof CHECKED_SCHEMAS;

/** The checking code of a schema: made ahead in the release executable, else generated now. */
export function checkerCode(name: CheckedSchemaName): string {
  return PREBUILT_CHECKER_CODE[name] ?? generatedCheckerCode(name);
}

/** The code TypeCompiler generates to check a schema: what compileChecker runs. */
export function generatedCheckerCode(name: CheckedSchemaName): string {
  return TypeCompiler.Code(CHECKED_SCHEMAS[name], [], { language: "javascript" });
}
