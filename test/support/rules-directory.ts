import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CASES_DIR } from "./golden-files.ts";

/** A temporary copy of test/cases/server-rules, with files added or replaced. */
export function rulesDirectory(files: Record<string, string> = {}): {
  path: string;
  write: (name: string, text: string) => void;
  remove: () => void;
} {
  const path = mkdtempSync(join(tmpdir(), "rule-server-rules-"));
  cpSync(join(CASES_DIR, "server-rules"), path, { recursive: true });
  rmSync(join(path, "README.md"));
  const write = (name: string, text: string): void => writeFileSync(join(path, name), text);
  for (const [name, text] of Object.entries(files)) write(name, text);
  return { path, write, remove: () => rmSync(path, { recursive: true, force: true }) };
}
