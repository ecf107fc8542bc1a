import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "./run-cli.ts";

/**
 * Packs the VS Code extension the way `make vsix` does (`bun editors/vscode/package-vsix.ts`),
 * into a fresh directory, and returns the .vsix; a failed packing throws with its output.
 * `wrap` runs the command line inside another (`unshare --net ...`).
 */
export function packVsix(wrap: (command: string[]) => string[] = (command) => command): string {
  const out = mkdtempSync(join(tmpdir(), "rule-server-vsix-test-"));
  const run = Bun.spawnSync(
    wrap([process.execPath, join(PROJECT_ROOT, "editors", "vscode", "package-vsix.ts"), "--out", out]),
    { cwd: PROJECT_ROOT, stdin: "ignore", stdout: "pipe", stderr: "pipe" },
  );
  if (run.exitCode !== 0) throw new Error(`package-vsix.ts failed: ${run.stdout.toString()}${run.stderr.toString()}`);
  const written = /^wrote (.+\.vsix)$/m.exec(run.stdout.toString());
  if (!written) throw new Error(`package-vsix.ts did not say what it wrote: ${run.stdout.toString()}`);
  return written[1]!;
}

/** Info-ZIP's unzip, which the zip writer's tests use too; its output, or a throw with it. */
export function unzip(...args: string[]): Buffer {
  const run = Bun.spawnSync(["unzip", ...args], {
    env: { LC_ALL: "C.UTF-8", PATH: "/usr/bin:/bin" },
    stdout: "pipe",
    stderr: "pipe",
  });
  if (run.exitCode !== 0) throw new Error(`unzip ${args.join(" ")}: ${run.stdout.toString()}${run.stderr.toString()}`);
  return run.stdout;
}
