import { join } from "node:path";
import { PackagingError } from "./packaging-error.ts";

/**
 * The example rules ship in every release archive as what users start from: a build refuses them
 * unless `rule-server check` passes them (every load check and golden test), run from the sources
 * being packed.
 */
export function checkExampleRules(root: string, rulesDirectory = join(root, "rules"), bun = process.execPath): void {
  const check = Bun.spawnSync([bun, join(root, "src", "main.ts"), "check", rulesDirectory], {
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (check.exitCode !== 0) {
    throw new PackagingError(
      "EXAMPLE_RULES_FAILING",
      `the example rules in ${rulesDirectory} do not pass check, so they are not packed:\n${check.stdout.toString()}${check.stderr.toString()}`,
    );
  }
}
