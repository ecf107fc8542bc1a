import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { CheckWarning } from "../compiler/checks/check-warnings.ts";
import type { SchemaLoader } from "../compiler/checks/schema-file.ts";
import { compileRuleset, type CompiledRuleset } from "../compiler/compile-ruleset.ts";
import { RulesetResolver } from "../compiler/resolve/resolve-ruleset.ts";
import { LoadError, type LoadProblem } from "../engine/bundle/load-problem.ts";
import { entitySchemaLoader } from "./files/entity-schema-files.ts";
import { ruleFilesOf } from "./files/rule-files-of-directory.ts";
import type { DocumentSources } from "../compiler/problems/problem-place.ts";
import {
  documentSourcesOf,
  readSourceFile,
  refusedSourcesOf,
  registryOf,
  type SourceFile,
} from "./files/source-documents.ts";

/**
 * Compiles ruleset source files as the server would: the rulesets of a file's directory form the
 * registry `extends` reads, and entity schemas are read relative to it. What a directory needs
 * (its sources, a resolver, a schema loader) is read once and shared by its files.
 */
export interface RulesDirectory {
  readonly sources: readonly SourceFile[];
  /** The source read from `file` (any path to it); by a map, since a load asks once per source. */
  sourceOf(file: string): SourceFile | undefined;
  /** The first source that names `id`. */
  sourceWithId(id: string): SourceFile | undefined;
  readonly resolver: RulesetResolver;
  readonly loadSchema: SchemaLoader;
  readonly documentSources: DocumentSources;
}

/** Unsaved texts that stand for files (an editor's open documents), and the files that exist only there. */
export interface UnsavedFiles {
  text(file: string): string | undefined;
  /**
   * The directory's sources in file order as the editor sees it: those only it has included, those
   * it leaves out (too large to check as one types) not.
   */
  sourcesOf(directory: string): readonly string[];
  /** Reads a source, reusing what an earlier read of the same text gave (the language server reads on every edit). */
  sourceFile?(file: string): SourceFile;
}

/** `readSource` reads each source instead (the server's reload cache, reload-cache.ts). */
export function readRulesDirectory(
  directory: string,
  unsaved?: UnsavedFiles,
  readSource?: (file: string) => SourceFile,
): RulesDirectory {
  const files = unsaved?.sourcesOf(directory) ?? ruleFilesOf(directory).source;
  const readText =
    unsaved === undefined ? undefined : (file: string): string => unsaved.text(file) ?? readFileSync(file, "utf8");
  const sources = files.map(
    (file) => unsaved?.sourceFile?.(file) ?? readSource?.(file) ?? readSourceFile(file, readText),
  );
  let byFile: Map<string, SourceFile> | undefined;
  let byId: Map<string, SourceFile> | undefined;
  return {
    sources,
    sourceOf: (file) => (byFile ??= firstOfEach(sources, (source) => resolve(source.file))).get(resolve(file)),
    sourceWithId: (id) => (byId ??= firstOfEach(sources, (source) => source.id)).get(id),
    resolver: new RulesetResolver(registryOf(sources), refusedSourcesOf(sources)),
    loadSchema: entitySchemaLoader(directory, unsaved === undefined ? undefined : (file) => unsaved.text(file)),
    documentSources: documentSourcesOf(sources),
  };
}

/** Each key's first source, as a search in file order would find it. */
function firstOfEach(
  sources: readonly SourceFile[],
  key: (source: SourceFile) => string | undefined,
): Map<string, SourceFile> {
  const first = new Map<string, SourceFile>();
  for (const source of sources) {
    const name = key(source);
    if (name !== undefined && !first.has(name)) first.set(name, source);
  }
  return first;
}

/**
 * A compiled source file, with the warnings of its rules (each naming its file: this one, or a
 * schema file), which never make it fail; or the problems that refuse it.
 */
export type SourceCompilation =
  | { ok: true; source: SourceFile; compiled: CompiledRuleset; warnings: CheckWarning[] }
  | { ok: false; source: SourceFile; problems: LoadProblem[] };

export function compileSourceFile(
  file: string,
  directory: RulesDirectory = readRulesDirectory(dirname(file)),
): SourceCompilation {
  const source = directory.sourceOf(file) ?? readSourceFile(file);
  if (source.document === undefined || source.problems.length > 0)
    return { ok: false, source, problems: [...source.problems] };
  try {
    const compiled = compileRuleset(source.document, {
      resolver: directory.resolver,
      loadSchema: directory.loadSchema,
      sources: directory.documentSources,
      embedEntitySchemas: true,
    });
    // The warnings are worked out when first read (check, the language server), never for the server.
    let warnings: CheckWarning[] | undefined;
    return {
      ok: true,
      source,
      compiled,
      get warnings() {
        warnings ??= compiled.warnings.map((warning) => ({ ...warning, file: warning.file ?? file }));
        return warnings;
      },
    };
  } catch (error) {
    if (error instanceof LoadError)
      return {
        ok: false,
        source,
        problems: error.problems.map((problem) => ({ ...problem, file: problem.file ?? file })),
      };
    throw error;
  }
}
