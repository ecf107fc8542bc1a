import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * jose is loaded only by a server that verifies JWTs: two modules import it, and the one module
 * that uses them (request-authentication.ts) imports them only when RULE_SERVER_JWT_* is set.
 */
const SRC = join(import.meta.dir, "..", "..", "..", "src");

function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(directory, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(directory, entry.name)]
        : [],
  );
}

test("jose is imported by the JWT modules alone, and they are imported only dynamically", () => {
  const files = sources(SRC).map((path) => ({ path: path.slice(SRC.length + 1), text: readFileSync(path, "utf8") }));
  const importingJose = files.filter(({ text }) => /^import\s(?!type\b)[^;]*from "jose";/m.test(text));
  expect(importingJose.map(({ path }) => path).sort()).toEqual([
    "server/auth/jwt-key-set.ts",
    "server/auth/jwt-token-verifier.ts",
  ]);
  const staticImportersOfJwt = files.filter(
    ({ path, text }) =>
      !path.startsWith("server/auth/jwt-") &&
      /^import\s(?!type\b)[^;]*from "[^"]*\/jwt-(?:key-set|token-verifier)\.ts";/m.test(text),
  );
  expect(staticImportersOfJwt.map(({ path }) => path)).toEqual([]);
  const authentication = files.find(({ path }) => path === "server/auth/request-authentication.ts")!.text;
  expect(authentication).toContain('await import("./jwt-token-verifier.ts")');
});
