import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * The engine must run unchanged in a browser (one engine, identical decisions everywhere): no Bun
 * or Node API in src/engine, and no package other than the two it is built on.
 */
const ENGINE = join(PROJECT_ROOT, "src", "engine");
const ALLOWED_PACKAGES = new Set(["decimal.js", "re2-wasm"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

const files = sourceFiles(ENGINE);

test("the engine has source files to check", () => expect(files.length).toBeGreaterThan(20));

for (const file of files) {
  test(`${relative(ENGINE, file)} uses no Bun or Node API`, () => {
    const text = readFileSync(file, "utf8");
    const imports = [...text.matchAll(/\bfrom\s+"([^"]+)"|\bimport\s*\(\s*"([^"]+)"\s*\)/g)].map(
      (match) => match[1] ?? match[2]!,
    );
    const packages = imports.filter((specifier) => !specifier.startsWith("."));
    expect(packages.filter((specifier) => !ALLOWED_PACKAGES.has(specifier))).toEqual([]);
    // The server's pattern backend, which the browser build replaces (the seam), loads RE2 on first use.
    const allowed =
      relative(ENGINE, file) === join("pattern", "re2-pattern-backend.ts") ? /\brequire\("re2-wasm"\)/g : undefined;
    expect(allowed ? text.replace(allowed, "") : text).not.toMatch(
      /\bBun\.|\bprocess\.|\brequire\(|\bBuffer\b|\b__dirname\b/,
    );
  });
}
