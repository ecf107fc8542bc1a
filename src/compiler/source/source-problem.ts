import type { JsonValue } from "../../engine/value/json-value.ts";
import type { SourceLocator } from "./source-position.ts";

/**
 * What reading a ruleset source file can report (specification sections 4.2 and 12).
 * YAML_NOT_PORTABLE, SOURCE_INVALID and EXPRESSION_TEXT_INVALID (an expression's text that does
 * not read, read-ruleset-source.ts) refuse the file; NUMBER_NOT_PORTABLE is a warning: the
 * value is still returned.
 */
export interface SourceProblem {
  code: "YAML_NOT_PORTABLE" | "NUMBER_NOT_PORTABLE" | "SOURCE_INVALID" | "EXPRESSION_TEXT_INVALID";
  message: string;
  file: string;
  line?: number;
  column?: number;
}

/**
 * A read value comes with a locator for the places of later problems. A refused read may still
 * carry what could be read (`salvaged`): enough to name the ruleset, never to compile it.
 */
export type SourceRead =
  | { ok: true; value: JsonValue; problems: SourceProblem[]; locate: SourceLocator }
  | { ok: false; problems: SourceProblem[]; salvaged?: JsonValue };

/** Problems in the order of their places in the file. */
export function inFileOrder(problems: readonly SourceProblem[]): SourceProblem[] {
  return [...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

/** Refusing problems make the read fail; NUMBER_NOT_PORTABLE alone does not. */
export function finishRead(value: JsonValue, problems: SourceProblem[], locate: SourceLocator): SourceRead {
  const sorted = inFileOrder(problems);
  if (sorted.some((problem) => problem.code !== "NUMBER_NOT_PORTABLE"))
    return { ok: false, problems: sorted, salvaged: value };
  return { ok: true, value, problems: sorted, locate };
}
