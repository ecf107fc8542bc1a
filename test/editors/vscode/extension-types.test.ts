import { expect, test } from "bun:test";
import { join } from "node:path";
import { PROJECT_ROOT } from "../../support/run-cli.ts";

/**
 * The extension runs in VS Code's Node.js, so it is type-checked with Node's types and the `vscode`
 * API it declares (editors/vscode/tsconfig.json), which the project's own tsconfig.json leaves out.
 */
test("the VS Code extension type-checks on its own", () => {
  const check = Bun.spawnSync(
    [join(PROJECT_ROOT, "node_modules", ".bin", "tsc"), "--noEmit", "-p", join(PROJECT_ROOT, "editors", "vscode")],
    { cwd: PROJECT_ROOT },
  );
  expect(check.stdout.toString() + check.stderr.toString()).toBe("");
  expect(check.exitCode).toBe(0);
}, 30000);
