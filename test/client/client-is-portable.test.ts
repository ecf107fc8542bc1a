import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * The client runs where the engine runs (browsers, Node.js, Bun, Deno): no Bun or Node API and no
 * package in src/client, and nothing of the engine but its types and the entry point it imports
 * on demand (src/browser/rule-cascade.ts, the package's engine.js).
 */
const CLIENT = join(PROJECT_ROOT, "src", "client");
const files = readdirSync(CLIENT).filter((name) => name.endsWith(".ts"));

test("the client has source files to check", () => expect(files.length).toBeGreaterThanOrEqual(5));

for (const name of files) {
  test(`${name} uses no Bun or Node API and reaches the engine only through its entry point`, () => {
    const text = readFileSync(join(CLIENT, name), "utf8");
    const imports = [...text.matchAll(/\bfrom\s+"([^"]+)"|\bimport\s*\(\s*"([^"]+)"\s*\)/g)].map(
      (match) => match[1] ?? match[2]!,
    );
    expect(
      imports.filter((specifier) => !specifier.startsWith("./") && specifier !== "../browser/rule-cascade.ts"),
    ).toEqual([]);
    expect(text).not.toMatch(/\bBun\.|\bprocess\.|\brequire\(|\bBuffer\b|\b__dirname\b/);
  });
}
