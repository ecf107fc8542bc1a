import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

/**
 * Every module the command line's bundle holds: src/main.ts and its imports, transitively, dynamic
 * ones too (Bun's bundle evaluates those later, but hoists their builtins' imports to its top).
 */
function loadedAtStart(entry: string): { files: Set<string>; builtins: Set<string> } {
  const files = new Set<string>();
  const builtins = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(
      /^\s*(?:import|export)\s(?!type\b)[^;]*?from\s+"([^"]+)"|^\s*import\s+"([^"]+)"|(?<!typeof )\bimport\("([^"]+)"\)/gm,
    )) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      if (specifier.startsWith("node:")) builtins.add(specifier);
      else if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier));
    }
  };
  visit(entry);
  return { files, builtins };
}

test("starting the command line (and the server) loads none of node:crypto, node:zlib and node:net", () => {
  // Loading them took 33 ms of the release executable's start-up: Bun's own hashing and deflate do
  // the same work, node:zlib's brotli is loaded when a body is first sent with it, and HOST is
  // checked for an IP address by ip-address.ts. A bundle hoists a builtin's import to its top, so
  // one imported by a module loaded later (the language server's) counts too.
  const { files, builtins } = loadedAtStart(join(ROOT, "src", "main.ts"));
  // The walk reaches what the server loads the rules with.
  expect(files.has(join(ROOT, "src", "workspace", "reload-cache.ts"))).toBe(true);
  expect(files.has(join(ROOT, "src", "server", "http", "compressible-body.ts"))).toBe(true);
  expect([...builtins].filter((name) => ["node:crypto", "node:zlib", "node:net"].includes(name))).toEqual([]);
});
