import { readdirSync, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { ruleFileKind, type RuleFileKind } from "./rule-file-kind.ts";

/** An entry directly inside a rules directory, with what `stat` said of it. */
export interface DirectoryEntry {
  readonly name: string;
  readonly path: string;
  readonly stats: Stats;
}

/**
 * The entries directly inside a rules directory, sorted by name, each looked at once. Names
 * starting with a dot are skipped (a ConfigMap's `..data`), and so is an entry that vanishes while
 * it is looked at (a volume being swapped). Throws the file system's error when the directory
 * itself cannot be read.
 */
export function directoryEntries(directory: string): DirectoryEntry[] {
  const entries: DirectoryEntry[] = [];
  for (const name of readdirSync(directory).sort()) {
    if (name.startsWith(".")) continue;
    const path = join(directory, name);
    try {
      entries.push({ name, path, stats: statSync(path) });
    } catch {
      // Vanished while looked at.
    }
  }
  return entries;
}

/**
 * The files directly inside a rules directory, by kind, each list sorted by name and holding full
 * paths: the entries (directoryEntries) that are files.
 */
export function ruleFilesOf(directory: string): Readonly<Record<RuleFileKind, string[]>> {
  return filesByKind(directoryEntries(directory));
}

function filesByKind(entries: readonly DirectoryEntry[]): Readonly<Record<RuleFileKind, string[]>> {
  const files: Record<RuleFileKind, string[]> = { source: [], bundle: [], "cache-policy": [], other: [] };
  for (const entry of entries) if (entry.stats.isFile()) files[ruleFileKind(entry.name)].push(entry.path);
  return files;
}

/**
 * The entries of an editor's directory, which may not exist yet on disk (its rulesets are all
 * unsaved): a directory that is missing or not a directory holds none. Other errors are thrown.
 */
export function editedDirectoryEntries(directory: string): DirectoryEntry[] {
  try {
    return directoryEntries(directory);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw error;
  }
}
