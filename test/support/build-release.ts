import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "./run-cli.ts";

/** Runs `bun build.ts <names> --out <fresh directory>` and returns the directory; a failed build throws with its output. */
export function buildRelease(...names: string[]): string {
  const out = mkdtempSync(join(tmpdir(), "rule-server-dist-"));
  const build = Bun.spawnSync([process.execPath, join(PROJECT_ROOT, "build.ts"), ...names, "--out", out], {
    cwd: PROJECT_ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (build.exitCode !== 0)
    throw new Error(`build.ts ${names.join(" ")} failed: ${build.stdout.toString()}${build.stderr.toString()}`);
  return out;
}
