import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A fresh directory holding the given files; remove it with the returned function. */
export function temporaryDirectory(files: Record<string, string>): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), "rule-server-test-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(path, name), text);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
