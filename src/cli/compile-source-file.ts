import { dirname } from "node:path";
import { compileRuleset, type CompiledRuleset } from "../compiler/compile-ruleset.ts";
import { LoadError, type LoadProblem } from "../engine/bundle/load-problem.ts";
import { entitySchemaLoader } from "../rule-files/entity-schema-files.ts";
import { filesOfKind, readSourceFile, registryOf, type SourceFile } from "../rule-files/source-documents.ts";

/**
 * Compiles one ruleset source file as the server would: the other rulesets of its directory form
 * the registry `extends` reads, and entity schemas are read relative to it.
 */
export type SourceCompilation = { ok: true; source: SourceFile; compiled: CompiledRuleset } | { ok: false; source: SourceFile; problems: LoadProblem[] };

export function compileSourceFile(file: string, neighbours: readonly SourceFile[] = filesOfKind(dirname(file), "source").map(readSourceFile)): SourceCompilation {
  const source = readSourceFile(file);
  if (source.document === undefined || source.problems.length > 0) return { ok: false, source, problems: [...source.problems] };
  try {
    const compiled = compileRuleset(source.document, { registry: registryOf(neighbours), loadSchema: entitySchemaLoader(file) });
    return { ok: true, source, compiled };
  } catch (error) {
    if (error instanceof LoadError) return { ok: false, source, problems: error.problems.map((problem) => ({ ...problem, file })) };
    throw error;
  }
}

/** `CODE [rule] message` lines for a terminal. */
export function formatProblem(problem: LoadProblem): string {
  return `${problem.file ?? ""}: ${problem.code}${problem.rule ? ` [${problem.rule}]` : ""} ${problem.message}`;
}
