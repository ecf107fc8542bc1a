import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ENVIRONMENT_VARIABLES } from "../../../src/server/config/read-environment.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";

/** The list of variables the server reads (which the deployment files are checked against) names every one it reads. */
test("every variable readEnvironment reads is in ENVIRONMENT_VARIABLES", () => {
  const source = readFileSync(join(PROJECT_ROOT, "src", "server", "config", "read-environment.ts"), "utf8");
  const body = source.slice(source.indexOf("export function readEnvironment"));
  const read = new Set(
    [...body.matchAll(/\benv\.([A-Z][A-Z0-9_]+)|\b(?:integer|flag)\("([A-Z][A-Z0-9_]+)"/g)].map(
      (match) => match[1] ?? match[2]!,
    ),
  );
  expect(read.size).toBeGreaterThan(15);
  expect([...read].filter((name) => !(ENVIRONMENT_VARIABLES as readonly string[]).includes(name)).sort()).toEqual([]);
});
