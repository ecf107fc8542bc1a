export { validateRulesetDocument, type SchemaProblem } from "./validate-document.ts";
