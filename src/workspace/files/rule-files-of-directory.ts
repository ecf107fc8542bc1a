import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ruleFileKind, type RuleFileKind } from "./rule-file-kind.ts";

/**
 * The files directly inside a rules directory, by kind, each list sorted by name and holding full
 * paths. Names starting with a dot are skipped (a ConfigMap's `..data`), and so is an entry that is
 * not a file or that vanishes while it is looked at (a volume being swapped). Throws the file
 * system's error when the directory itself cannot be read.
 */
export function ruleFilesOf(directory: string): Readonly<Record<RuleFileKind, string[]>> {
  const files: Record<RuleFileKind, string[]> = { source: [], bundle: [], "cache-policy": [], other: [] };
  for (const name of readdirSync(directory).sort()) {
    if (name.startsWith(".")) continue;
    const path = join(directory, name);
    if (isFile(path)) files[ruleFileKind(name)].push(path);
  }
  return files;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The same, for an editor's directory, which may not exist yet on disk (its rulesets are all
 * unsaved): a directory that is missing or not a directory holds no files. Other errors are thrown.
 */
export function ruleFilesOfEditedDirectory(directory: string): Readonly<Record<RuleFileKind, string[]>> {
  try {
    return ruleFilesOf(directory);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { source: [], bundle: [], "cache-policy": [], other: [] };
    throw error;
  }
}
