import type { JsonValue } from "../../engine/value/json-value.ts";

/**
 * What reading a ruleset source file can report (specification sections 4.2 and 12).
 * YAML_NOT_PORTABLE and SOURCE_INVALID refuse the file; NUMBER_NOT_PORTABLE is a warning: the
 * value is still returned.
 */
export interface SourceProblem {
  code: "YAML_NOT_PORTABLE" | "NUMBER_NOT_PORTABLE" | "SOURCE_INVALID";
  message: string;
  file: string;
  line?: number;
}

export type SourceRead = { ok: true; value: JsonValue; problems: SourceProblem[] } | { ok: false; problems: SourceProblem[] };

/** Refusing problems make the read fail; NUMBER_NOT_PORTABLE alone does not. */
export function finishRead(value: JsonValue, problems: SourceProblem[]): SourceRead {
  const sorted = [...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  if (sorted.some((problem) => problem.code !== "NUMBER_NOT_PORTABLE")) return { ok: false, problems: sorted };
  return { ok: true, value, problems: sorted };
}
