import { readFileSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { LoadProblem } from "../engine/bundle/load-problem.ts";
import { isJsonObject, objectAt, stringAt } from "../engine/value/json-access.ts";
import type { JsonValue } from "../engine/value/json-value.ts";
import { readSource } from "../compiler/source/read-source.ts";

/**
 * Ruleset source files read from disk: each file's document (when it parses) and the problems of
 * reading it, and a registry of ruleset id to document for `extends`.
 */
export interface SourceFile {
  readonly file: string;
  readonly document: JsonValue | undefined;
  readonly problems: readonly LoadProblem[];
  /** `metadata.id`, when the document has one. */
  readonly id: string | undefined;
}

export function readSourceFile(file: string): SourceFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    return { file, document: undefined, id: undefined, problems: [{ code: "SOURCE_INVALID", message: `cannot read the file: ${error instanceof Error ? error.message : String(error)}`, file }] };
  }
  const read = readSource(text, file);
  const problems = read.problems.map((problem) => ({
    code: problem.code,
    message: problem.line === undefined ? problem.message : `line ${problem.line}: ${problem.message}`,
    file,
  }));
  if (!read.ok) return { file, document: undefined, id: undefined, problems };
  const id = isJsonObject(read.value) ? stringAt(objectAt(read.value.metadata).id) || undefined : undefined;
  return { file, document: read.value, id, problems };
}

/** Ruleset id to document, for the sources that parsed and name an id. The first file wins a repeated id. */
export function registryOf(sources: readonly SourceFile[]): Map<string, JsonValue> {
  const registry = new Map<string, JsonValue>();
  for (const source of sources) if (source.id !== undefined && source.document !== undefined && !registry.has(source.id)) registry.set(source.id, source.document);
  return registry;
}

/** Problems for ruleset ids defined by more than one file (the contract's rule 1). */
export function repeatedIdProblems(sources: readonly SourceFile[]): LoadProblem[] {
  const first = new Map<string, string>();
  const problems: LoadProblem[] = [];
  for (const source of sources) {
    if (source.id === undefined) continue;
    const earlier = first.get(source.id);
    if (earlier === undefined) first.set(source.id, source.file);
    else problems.push({ code: "RULESET_DUPLICATE", message: `ruleset ${source.id} is also defined by ${basename(earlier)}`, file: source.file });
  }
  return problems;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(resolve(path)).isDirectory();
  } catch {
    return false;
  }
}
