import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { LoadProblem } from "../../engine/bundle/load-problem.ts";
import { isJsonObject, objectAt, stringAt } from "../../engine/value/json-access.ts";
import type { JsonValue } from "../../engine/value/json-value.ts";
import type { DocumentSources } from "../../compiler/problems/problem-place.ts";
import { readRulesetSource } from "../../compiler/source/read-ruleset-source.ts";
import type { SourceLocator } from "../../compiler/source/source-position.ts";
import type { TextExpressionPlace } from "../../compiler/expression-text/translate-text-expressions.ts";

/**
 * Ruleset source files read from disk: each file's document (when it parses) and the problems of
 * reading it, and a registry of ruleset id to document for `extends`.
 */
export interface SourceFile {
  readonly file: string;
  readonly document: JsonValue | undefined;
  readonly problems: readonly LoadProblem[];
  /** `metadata.id`, when the document has one (read as far as possible even when the file is refused). */
  readonly id: string | undefined;
  /** Places in the file, when it was read. */
  readonly locate?: SourceLocator;
  /** The expressions the file writes as text, when it was read (`check --portable` warns on each). */
  readonly textExpressions?: readonly TextExpressionPlace[];
}

/**
 * Reads a source file; `readText` lets an editor's unsaved text stand for the file on disk
 * (the language server's open documents).
 */
export function readSourceFile(file: string, readText: (file: string) => string = diskText): SourceFile {
  let text: string;
  try {
    text = readText(file);
  } catch (error) {
    return {
      file,
      document: undefined,
      id: undefined,
      problems: [
        {
          code: "SOURCE_INVALID",
          message: `cannot read the file: ${error instanceof Error ? error.message : String(error)}`,
          file,
        },
      ],
    };
  }
  const read = readRulesetSource(text, file);
  const problems = read.problems.map(({ code, message, line, column }) => ({
    code,
    message,
    file,
    ...(line === undefined ? {} : { line }),
    ...(column === undefined ? {} : { column }),
  }));
  if (!read.ok) return { file, document: undefined, id: rulesetId(read.salvaged), problems };
  return {
    file,
    document: read.value,
    id: rulesetId(read.value),
    problems,
    locate: read.locate,
    textExpressions: read.textExpressions,
  };
}

function diskText(file: string): string {
  return readFileSync(file, "utf8");
}

function rulesetId(document: JsonValue | undefined): string | undefined {
  return isJsonObject(document) ? stringAt(objectAt(document.metadata).id) || undefined : undefined;
}

/** The file each read document came from, for the places of compile problems. */
export function documentSourcesOf(sources: readonly SourceFile[]): DocumentSources {
  const byDocument = new Map<JsonValue, { file: string; locate: SourceLocator }>();
  for (const source of sources)
    if (source.document !== undefined && source.locate !== undefined)
      byDocument.set(source.document, { file: source.file, locate: source.locate });
  return (document) => byDocument.get(document);
}

/** Ruleset id to the problems of the files naming it that were refused, so their children are told why. */
export function refusedSourcesOf(sources: readonly SourceFile[]): Map<string, readonly LoadProblem[]> {
  const refused = new Map<string, readonly LoadProblem[]>();
  for (const source of sources)
    if (source.id !== undefined && source.document === undefined && !refused.has(source.id))
      refused.set(source.id, source.problems);
  return refused;
}

/** Ruleset id to document, for the sources that parsed and name an id. The first file wins a repeated id. */
export function registryOf(sources: readonly SourceFile[]): Map<string, JsonValue> {
  const registry = new Map<string, JsonValue>();
  for (const source of sources)
    if (source.id !== undefined && source.document !== undefined && !registry.has(source.id))
      registry.set(source.id, source.document);
  return registry;
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(resolve(path)).isDirectory();
  } catch {
    return false;
  }
}
