export { validateRule, validateRulesetDocument, type SchemaProblem } from "./validate-document.ts";
