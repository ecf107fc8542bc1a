import { join } from "node:path";

export const PROJECT_ROOT = join(import.meta.dir, "..", "..");
export const MAIN = join(PROJECT_ROOT, "src", "main.ts");

export interface CliRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `bun src/main.ts <args>` as a child process with the given standard input. */
export async function runCli(args: readonly string[], input: string | Uint8Array = ""): Promise<CliRun> {
  const child = Bun.spawn([process.execPath, MAIN, ...args], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    cwd: PROJECT_ROOT,
  });
  child.stdin.write(input);
  await child.stdin.end();
  const [stdout, stderr, status] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { status, stdout, stderr };
}
