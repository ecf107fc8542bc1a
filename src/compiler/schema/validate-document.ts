/**
 * Step 1 of loading (Rule Cascade 1.0, section 5): validate a ruleset document against the
 * schema. Fails with `SCHEMA_INVALID`.
 *
 * The TypeBox schema in `ruleset-document.ts` (by way of checked-schemas.ts) accepts exactly the documents the reference JSON
 * Schema (draft 2020-12) accepts. `format: date-time` is treated as an annotation (the draft
 * 2020-12 default), so `metadata.effective.from` / `until` accept any string. Defaults are
 * annotations: nothing is filled in and the document is not changed.
 */
import { checkedSchema, checkerCode } from "./checked-schemas.ts";
import { compileChecker, type SchemaChecker } from "./compile-checker.ts";
import { toProblems, type SchemaProblem } from "./problems.ts";

export type { SchemaProblem } from "./problems.ts";

let compiled: SchemaChecker | undefined;
let compiledRule: SchemaChecker | undefined;

/** The compiled checker, built once on first use. */
function checker(): SchemaChecker {
  compiled ??= compileChecker(() => checkedSchema("RulesetDocument"), checkerCode("RulesetDocument"));
  return compiled;
}

/** The schema problems of a ruleset document (a parsed JSON value); `[]` when it is valid. */
export function validateRulesetDocument(document: unknown): SchemaProblem[] {
  const check = checker();
  if (check.Check(document)) return [];
  const problems = toProblems(check.Errors(document));
  // The compiled check and the error walk are the same rules; never report "invalid" with no reason.
  return problems.length > 0
    ? problems
    : [{ code: "SCHEMA_INVALID", message: "the document does not match the ruleset schema", path: "", part: "value" }];
}

/**
 * The schema problems of one rule (`$defs/Rule`), paths inside the rule: for a rule no document
 * holds as it ends up, an inherited rule changed by an override.
 */
export function validateRule(rule: unknown): SchemaProblem[] {
  compiledRule ??= compileChecker(() => checkedSchema("Rule"), checkerCode("Rule"));
  if (compiledRule.Check(rule)) return [];
  const problems = toProblems(compiledRule.Errors(rule));
  return problems.length > 0
    ? problems
    : [{ code: "SCHEMA_INVALID", message: "the rule does not match the rule schema", path: "", part: "value" }];
}
