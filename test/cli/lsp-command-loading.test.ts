import { expect, test } from "bun:test";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

/** How many vscode-languageserver modules a fresh process has loaded after importing `modules` in turn. */
function languageServerModulesAfter(modules: readonly string[]): number[] {
  const script = [
    "const counts = [];",
    ...modules.map(
      (module) =>
        `await import(${JSON.stringify(join(ROOT, module))}); counts.push(Object.keys(require.cache).filter((key) => key.includes("vscode-languageserver")).length);`,
    ),
    "console.log(JSON.stringify(counts));",
  ].join("\n");
  const run = Bun.spawnSync([process.execPath, "-e", script], { cwd: ROOT });
  expect(run.exitCode).toBe(0);
  return JSON.parse(run.stdout.toString());
}

test("the command line loads the language server's library only for `rule-server lsp`", () => {
  // vscode-languageserver sets itself up as it loads: a third of every other command's start-up.
  const [cli, lsp] = languageServerModulesAfter(["src/cli/run-command.ts", "src/lsp/language-server.ts"]);
  expect(cli).toBe(0);
  expect(lsp).toBeGreaterThan(0);
});
