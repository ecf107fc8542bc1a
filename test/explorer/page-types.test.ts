import { expect, test } from "bun:test";
import { join } from "node:path";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * The page's code is type-checked as browser code (DOM, no Bun) by its own project,
 * src/explorer/tsconfig.json, which the server's project leaves out.
 */
test("the explorer page type-checks against the DOM", () => {
  const check = Bun.spawnSync(
    [join(PROJECT_ROOT, "node_modules", ".bin", "tsc"), "--noEmit", "-p", join(PROJECT_ROOT, "src", "explorer")],
    { cwd: PROJECT_ROOT },
  );
  expect(check.stdout.toString() + check.stderr.toString()).toBe("");
  expect(check.exitCode).toBe(0);
}, 60_000);
