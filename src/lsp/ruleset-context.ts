import { dirname } from "node:path";
import { loadEntitySchemas, type EntitySchema } from "../compiler/checks/entity-schemas.ts";
import type { ResolvedRuleset } from "../compiler/resolve/resolve-ruleset.ts";
import { readRulesetSource } from "../compiler/source/read-ruleset-source.ts";
import { isJsonObject, objectAt } from "../engine/value/json-access.ts";
import type { JsonObject } from "../engine/value/json-value.ts";
import type { RulesDirectory } from "../workspace/compile-source-file.ts";
import type { SourceFile } from "../workspace/files/source-documents.ts";
import type { RulesWorkspace } from "./rules-workspace.ts";
import { lineageOf } from "./ruleset-family.ts";

/**
 * What the editor's features know of one ruleset source: its document as now written, the
 * ruleset resolved with its parents (when it resolves), and what that makes available: entity
 * schemas, params, functions and messages, inherited ones included.
 */
export interface RulesetContext {
  readonly file: string;
  readonly source: SourceFile;
  readonly document: JsonObject | undefined;
  readonly directory: RulesDirectory;
  readonly resolved: ResolvedRuleset | undefined;
  readonly entitySchemas: ReadonlyMap<string, EntitySchema>;
  /** Declared here or, while the ruleset does not resolve, by its parents. */
  readonly entities: JsonObject;
  /** The custom operators declared, likewise. */
  readonly operators: JsonObject;
  readonly params: JsonObject;
  readonly functions: JsonObject;
  /** Locale → message key → text. */
  readonly messages: JsonObject;
  /** The ids of the rulesets of the directory, for `extends`. */
  readonly rulesetIds: readonly string[];
}

export function rulesetContext(workspace: RulesWorkspace, file: string): RulesetContext | undefined {
  const directory = workspace.directory(dirname(file));
  const read = directory.sources.find((candidate) => candidate.file === file);
  if (read === undefined) return undefined;
  const source = read.document === undefined ? salvaged(read, workspace.textOrDisk(file)) : read;
  const document = isJsonObject(source.document) ? source.document : undefined;
  let resolved: ResolvedRuleset | undefined;
  try {
    resolved = document === undefined ? undefined : directory.resolver.resolve(document);
  } catch {
    // A ruleset that does not resolve still offers what its own document declares.
    resolved = undefined;
  }
  const own = resolved?.resolved ?? inheritedDeclarations(directory, source);
  const entities = objectAt(own.entities);
  const entitySchemas = loadEntitySchemas(
    entities,
    directory.loadSchema,
    () => undefined,
    () => undefined,
  );
  return {
    file,
    source,
    document,
    directory,
    resolved,
    entitySchemas,
    entities,
    operators: objectAt(own.operators),
    params: objectAt(own.params),
    functions: objectAt(own.functions),
    messages: objectAt(own.messages),
    rulesetIds: directory.sources.flatMap((candidate) => (candidate.id === undefined ? [] : [candidate.id])),
  };
}

/**
 * A source its reading refused, with what could be read of it: an expression's text half typed
 * refuses the file, and completion inside that text still needs the ruleset's params, functions
 * and entities. Its texts that read are trees, as in a document that reads.
 */
function salvaged(source: SourceFile, text: string | undefined): SourceFile {
  if (text === undefined) return source;
  const read = readRulesetSource(text, source.file);
  const document = read.ok ? read.value : read.salvaged;
  return document === undefined ? source : { ...source, document };
}

/** The rule a path inside the document lies in (`rules/3/...`), as written. */
export function ruleAt(context: RulesetContext, path: readonly string[]): JsonObject | undefined {
  if (path[0] !== "rules" || path[1] === undefined) return undefined;
  const rule = (context.document?.rules as unknown[] | undefined)?.[Number(path[1])];
  return isJsonObject(rule as never) ? (rule as JsonObject) : undefined;
}

/**
 * While a ruleset is being written it often does not resolve: its own declarations and those of
 * its parents (found by id in the directory, nearest first) still stand.
 */
function inheritedDeclarations(directory: RulesDirectory, source: SourceFile): JsonObject {
  const merged: Record<string, JsonObject> = { params: {}, functions: {}, entities: {}, messages: {}, operators: {} };
  for (const { document } of lineageOf(directory, source)) {
    if (!isJsonObject(document)) continue;
    for (const member of ["params", "functions", "entities", "operators"])
      merged[member] = { ...objectAt(document[member]), ...merged[member] };
    for (const [locale, catalog] of Object.entries(objectAt(document.messages)))
      merged.messages![locale] = { ...objectAt(catalog), ...objectAt(merged.messages![locale]) };
  }
  return merged as unknown as JsonObject;
}
