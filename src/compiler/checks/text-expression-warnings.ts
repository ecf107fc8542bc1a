import { listAt, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonValue } from "../../engine/value/json-value.ts";
import type { TextExpressionPlace } from "../expression-text/translate-text-expressions.ts";
import type { CheckWarning } from "./check-warnings.ts";

/**
 * `check --portable`: EXPRESSION_NOT_PORTABLE at every expression a source writes as text. Text is
 * this compiler's authoring form (DECISIONS.md, "Expressions written as text"): bundles are the
 * same either way, but a source handed to another Rule Cascade runtime must hold trees.
 */
export function textExpressionWarnings(
  document: JsonValue | undefined,
  places: readonly TextExpressionPlace[],
  file: string,
): CheckWarning[] {
  return places.map((place) => {
    const rule = ruleIdAt(document, place.path);
    return {
      code: "EXPRESSION_NOT_PORTABLE",
      message:
        "this expression is written as text, which other Rule Cascade runtimes do not read (they read trees only): `rule-server fmt --expressions tree` writes it as a tree",
      file,
      ...(rule === undefined ? {} : { rule }),
      ...(place.line === undefined ? {} : { line: place.line, column: place.column ?? 1 }),
    };
  });
}

/** The id of the rule a document path leads into (`rules/3/when`), if it has one. */
function ruleIdAt(document: JsonValue | undefined, path: readonly string[]): string | undefined {
  if (path[0] !== "rules" || path[1] === undefined) return undefined;
  return stringAt(objectAt(listAt(objectAt(document).rules)[Number(path[1])]).id) || undefined;
}
