/**
 * `rule-server check <dir>` from source (every file compiled and its golden tests run), pinned to
 * the server's core like the server: the wall time from spawn to exit, and its summary line.
 */
import { join } from "node:path";
import { PINNING, pinned } from "../http/wrk.ts";

const ROOT = join(import.meta.dir, "..", "..");

export interface CheckTime {
  readonly ms: number;
  readonly passed: boolean;
  /** The last line check printed: its count of files, problems and tests. */
  readonly summary: string;
}

export async function timeCheck(directory: string): Promise<CheckTime> {
  const started = performance.now();
  const child = Bun.spawn(
    pinned(PINNING?.server, [process.execPath, join(ROOT, "src", "main.ts"), "check", directory]),
    {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const [output, errors, status] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  const ms = performance.now() - started;
  const summary = `${output}\n${errors}`.trim().split("\n").at(-1) ?? "";
  return { ms, passed: status === 0, summary };
}
