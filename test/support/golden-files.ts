import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** The folder of golden data files. */
export const CASES_DIR = join(import.meta.dir, "..", "cases");

/** Every `*.json` file under a folder of test/cases, recursively, with its path relative to that folder. */
export function goldenJsonFiles(folder: string): { name: string; content: unknown }[] {
  const root = join(CASES_DIR, folder);
  const files: { name: string; content: unknown }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".json"))
        files.push({ name: relative(root, path), content: JSON.parse(readFileSync(path, "utf8")) });
    }
  };
  walk(root);
  return files;
}
