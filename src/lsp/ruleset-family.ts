import { isJsonObject, listAt, objectAt, stringAt } from "../engine/value/json-access.ts";
import type { RulesDirectory } from "../workspace/compile-source-file.ts";
import type { SourceFile } from "../workspace/files/source-documents.ts";

/**
 * The rulesets of a directory that `extends` relates to a source, found by id as the resolver finds
 * them (the first file of a repeated id that parsed), whether or not they resolve: what a name
 * declared in one ruleset can mean, and where it can be used.
 */

/** The source and its parents, nearest first; a cycle ends the walk. */
export function lineageOf(directory: RulesDirectory, source: SourceFile): SourceFile[] {
  const lineage: SourceFile[] = [];
  for (
    let current: SourceFile | undefined = source;
    current !== undefined && !lineage.includes(current);
    current = parentOf(directory, current)
  )
    lineage.push(current);
  return lineage;
}

/** The source and every ruleset of the directory that extends it, directly or not. */
export function descendantsOf(directory: RulesDirectory, source: SourceFile): SourceFile[] {
  const family = [source];
  for (let index = 0; index < family.length; index++) {
    const children = directory.sources.filter(
      (candidate) =>
        !family.includes(candidate) && parentIds(candidate).some((id) => byId(directory, id) === family[index]),
    );
    family.push(...children);
  }
  return family;
}

/** The first parent `extends` names that the directory holds (the specification allows one). */
function parentOf(directory: RulesDirectory, source: SourceFile): SourceFile | undefined {
  for (const id of parentIds(source)) {
    const parent = byId(directory, id);
    if (parent !== undefined) return parent;
  }
  return undefined;
}

function parentIds(source: SourceFile): string[] {
  const document = isJsonObject(source.document) ? source.document : {};
  return listAt(document.extends)
    .map((parent) => stringAt(objectAt(parent).ruleset))
    .filter((id) => id !== "");
}

function byId(directory: RulesDirectory, id: string): SourceFile | undefined {
  return directory.sources.find((source) => source.id === id && source.document !== undefined);
}
