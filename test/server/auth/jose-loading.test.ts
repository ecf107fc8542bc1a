import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * jose is loaded only by a server that verifies JWTs or bundle signatures, and by the commands that
 * sign: two JWT modules and the signing part import it; request-authentication.ts imports the JWT
 * modules only when RULE_SERVER_JWT_* is set, and the signing part is imported only dynamically
 * (RULE_SERVER_TRUSTED_KEYS, `keygen`, `sign`, `push`).
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

test("jose is imported by the JWT modules and the signing part alone, and they are imported only dynamically", () => {
  const files = sources(SRC).map((path) => ({ path: path.slice(SRC.length + 1), text: readFileSync(path, "utf8") }));
  const importingJose = files.filter(({ text }) => /^import\s(?!type\b)[^;]*from "jose";/m.test(text));
  expect(
    importingJose
      .map(({ path }) => path)
      .filter((path) => !path.startsWith("signing/"))
      .sort(),
  ).toEqual(["server/auth/jwt-key-set.ts", "server/auth/jwt-token-verifier.ts"]);
  // Whatever imports the signing part statically is itself imported only dynamically: the commands that sign.
  const staticImportersOfSigning = files.filter(
    ({ path, text }) =>
      !path.startsWith("signing/") && /^import\s(?!type\b)[^;]*from "[^"]*\/signing\/[^"]+";/m.test(text),
  );
  expect(staticImportersOfSigning.map(({ path }) => path).sort()).toEqual([
    "cli/keygen-command.ts",
    "cli/push-command.ts",
    "cli/sign-command.ts",
  ]);
  const commands = files.find(({ path }) => path === "cli/run-command.ts")!.text;
  for (const command of ["keygen", "sign", "push"]) {
    expect(commands).toContain(`await import("./${command}-command.ts")`);
    expect(commands).not.toMatch(new RegExp(`^import[^;]*"\\./${command}-command\\.ts";`, "m"));
  }
  expect(files.find(({ path }) => path === "server/refresh/rules-origin.ts")!.text).toContain(
    'await import("../../signing/trusted-keys.ts")',
  );
  const staticImportersOfJwt = files.filter(
    ({ path, text }) =>
      !path.startsWith("server/auth/jwt-") &&
      /^import\s(?!type\b)[^;]*from "[^"]*\/jwt-(?:key-set|token-verifier)\.ts";/m.test(text),
  );
  expect(staticImportersOfJwt.map(({ path }) => path)).toEqual([]);
  const authentication = files.find(({ path }) => path === "server/auth/request-authentication.ts")!.text;
  expect(authentication).toContain('await import("./jwt-token-verifier.ts")');
});
