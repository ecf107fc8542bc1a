import { listAt, objectAt, stringAt } from "../engine/value/json-access.ts";
import type { SourceFile } from "../workspace/files/source-documents.ts";

/**
 * The sources of a directory whose report an edit can change, from the sources the last check read
 * and those read now (a source read from unchanged text is the same object: RulesWorkspace's
 * sourceFile; files are named as the directory's listing names them): each source changed, added
 * or removed, and every source that extends one of them, directly or not. A source's report depends
 * on nothing else of the directory's sources: on its own text and on the rulesets its `extends`
 * names, found by id (the first file that parsed wins a repeated id, and a file that did not parse
 * is named as the reason). So "extends one of them" is by id, the ids the changed sources define
 * now and defined before. One thing more reads every id: a parent that is not in the directory is
 * reported with the nearest id there is, so when the set of ids changes, every source that names a
 * parent not defined is checked again too, with its children.
 */
export function sourcesToRecheck(
  before: ReadonlyMap<string, SourceFile>,
  now: readonly SourceFile[],
): ReadonlySet<string> {
  const nowByFile = new Map(now.map((source) => [source.file, source]));
  const recheck = new Set<string>();
  const touchedIds = new Set<string>();
  let idsChanged = false;
  const touch = (earlier: SourceFile | undefined, source: SourceFile | undefined): void => {
    for (const id of [earlier?.id, source?.id]) if (id !== undefined) touchedIds.add(id);
    idsChanged ||= definedId(earlier) !== definedId(source);
  };
  for (const [file, source] of nowByFile) {
    const earlier = before.get(file);
    if (earlier === source) continue;
    recheck.add(file);
    touch(earlier, source);
  }
  for (const [file, earlier] of before) if (!nowByFile.has(file)) touch(earlier, undefined);
  if (touchedIds.size === 0 && !idsChanged) return recheck;

  const definedNow = new Set(now.flatMap((source) => definedId(source) ?? []));
  const childrenOf = new Map<string, string[]>();
  for (const [file, source] of nowByFile) {
    for (const parent of extendedIds(source)) {
      // A parent not defined is reported with the ids there are: those changed.
      if (idsChanged && !definedNow.has(parent)) recheck.add(file);
      const children = childrenOf.get(parent);
      if (children === undefined) childrenOf.set(parent, [file]);
      else children.push(file);
    }
  }
  // Down the `extends` links from the ids touched: children, then theirs.
  const pending = [...touchedIds, ...[...recheck].flatMap((file) => nowByFile.get(file)?.id ?? [])];
  const visited = new Set<string>();
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (visited.has(id)) continue;
    visited.add(id);
    for (const child of childrenOf.get(id) ?? []) {
      recheck.add(child);
      const childId = nowByFile.get(child)?.id;
      if (childId !== undefined) pending.push(childId);
    }
  }
  return recheck;
}

/** The id `extends` can find a source by: one that parsed. */
function definedId(source: SourceFile | undefined): string | undefined {
  return source?.document === undefined ? undefined : source.id;
}

/** Each source's parent ids, worked out once: a source read from unchanged text is the same object. */
const parentIds = new WeakMap<SourceFile, readonly string[]>();

/** The parent ids a source's `extends` names, as the resolver reads them (an id that is no string is ""). */
function extendedIds(source: SourceFile): readonly string[] {
  let ids = parentIds.get(source);
  if (ids === undefined) {
    ids = listAt(objectAt(source.document).extends).map((entry) => stringAt(objectAt(entry).ruleset));
    parentIds.set(source, ids);
  }
  return ids;
}
