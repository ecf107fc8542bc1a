import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * A SHA-256 over the names and contents of every file under a rules directory, skipping every
 * entry whose name starts with a dot at any depth (the `..data` directories of a mounted
 * ConfigMap), following symbolic links. A scheduled check reloads only when it changes.
 */
export function rulesDirectoryHash(directory: string, skip: (relativePath: string) => boolean = () => false): string {
  // Bun's hasher rather than node:crypto's, whose loading took 10 ms of the server's start-up.
  const hash = new Bun.CryptoHasher("sha256");
  const visit = (folder: string, prefix: string, depth: number): void => {
    if (depth > 32) return;
    for (const name of readdirSync(folder).sort()) {
      if (name.startsWith(".") || skip(`${prefix}${name}`)) continue;
      const path = join(folder, name);
      let stats: ReturnType<typeof statSync>;
      try {
        stats = statSync(path);
      } catch {
        // A link whose target vanished mid-swap: hash its name, so the change is still seen.
        hash.update(`${prefix}${name}\0missing\0`);
        continue;
      }
      if (stats.isDirectory()) visit(path, `${prefix}${name}/`, depth + 1);
      else if (stats.isFile()) {
        let content: Buffer;
        try {
          content = readFileSync(path);
        } catch {
          hash.update(`${prefix}${name}\0unreadable\0`);
          continue;
        }
        hash.update(`${prefix}${name}\0${content.length}\0`);
        hash.update(content);
      }
    }
  };
  try {
    visit(directory, "", 0);
  } catch {
    hash.update("\0unreadable directory\0");
  }
  return hash.digest("hex");
}
