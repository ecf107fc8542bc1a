import { readFileSync, statSync } from "node:fs";

/** Files up to this size are stamped by their contents too: a rewrite within one tick of the clock is seen. */
const HASHED_BYTES = 64 * 1024;

/**
 * What checking a rules directory reads besides its ruleset sources, each file by its stamp: the
 * directory's other files and folders (bundles, the cache policy, entity schemas, the rest; a
 * folder's stamp changes as files come and go in it), the schema files a check read from folders
 * below it, and the editor's unsaved text of any of them. Any ruleset may read one of these, so
 * when a stamp changes the next check is a full one.
 */
export type SupportStamps = ReadonlyMap<string, string>;

/** The stamps of the directory's `others` (directory-scan.ts) and of the files in `alsoRead`. */
export function supportStamps(
  others: readonly string[],
  alsoRead: Iterable<string>,
  unsavedText: (file: string) => string | undefined,
): Map<string, string> {
  const stamps = new Map<string, string>();
  for (const file of [...others, ...alsoRead])
    if (!stamps.has(file)) stamps.set(file, supportFileStamp(file, unsavedText));
  return stamps;
}

/**
 * A file's kind, size and modification time, its contents when small (entity schemas, the cache
 * policy), and the editor's unsaved text of it (an entity schema is read from the editor when open).
 */
export function supportFileStamp(file: string, unsavedText: (file: string) => string | undefined): string {
  let stamp: string;
  try {
    const stats = statSync(file);
    stamp = `${stats.isDirectory() ? "folder" : "file"} ${stats.size} ${stats.mtimeMs}`;
    if (stats.isFile() && stats.size <= HASHED_BYTES) stamp += ` ${hash(readFileSync(file))}`;
  } catch {
    stamp = "missing";
  }
  const text = unsavedText(file);
  return text === undefined ? stamp : `${stamp} unsaved ${hash(text)}`;
}

function hash(contents: string | Buffer): string {
  // Bun's hasher: a bundle hoists node:crypto's import to its top, where every command would load it.
  return new Bun.CryptoHasher("sha256").update(contents).digest("hex");
}

export function sameStamps(a: SupportStamps, b: SupportStamps): boolean {
  if (a.size !== b.size) return false;
  for (const [file, stamp] of a) if (b.get(file) !== stamp) return false;
  return true;
}
