import { readJsonSource } from "./read-json-source.ts";
import { readYamlSource } from "./read-yaml-source.ts";
import type { SourceRead } from "./source-problem.ts";

export type { SourceProblem, SourceRead } from "./source-problem.ts";

/**
 * Reads one ruleset source document into its JSON value (specification sections 4.2 and 12):
 * YAML for `.yaml` and `.yml` files, JSON for `.json`, chosen by the file name. Every problem found
 * is listed, not only the first, as far as the parser allows (a JSON syntax error stops the read).
 */
export function readSource(text: string, file: string): SourceRead {
  const lower = file.toLowerCase();
  if (lower.endsWith(".json")) return readJsonSource(text, file);
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return readYamlSource(text, file);
  return {
    ok: false,
    problems: [{ code: "SOURCE_INVALID", message: `${file}: a source file is .yaml, .yml or .json`, file }],
  };
}
