import { join } from "node:path";
import type { CommandIo } from "../../src/cli/command-io.ts";
import { runCommand } from "../../src/cli/run-command.ts";

export const PROJECT_ROOT = join(import.meta.dir, "..", "..");
export const MAIN = join(PROJECT_ROOT, "src", "main.ts");

export interface CliRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** What a command run in process is given besides its arguments and standard input. */
export interface CliSurroundings {
  /** Relative paths are taken from here, and reports show paths relative to it; PROJECT_ROOT unless given. */
  readonly cwd?: string;
  /** The test process's environment unless given. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** An io whose output is kept in strings and whose standard input is `input`. */
export function capturedIo(
  input: string | Uint8Array = "",
  surroundings: CliSurroundings = {},
): { io: CommandIo; stdout: () => string; stderr: () => string } {
  let stdout = "";
  let stderr = "";
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  async function* stdin(): AsyncGenerator<Uint8Array> {
    if (bytes.length > 0) yield bytes;
  }
  const io: CommandIo = {
    stdout: { write: async (text) => void (stdout += text) },
    stderr: { write: async (text) => void (stderr += text) },
    stdin: stdin(),
    env: surroundings.env ?? process.env,
    cwd: surroundings.cwd ?? PROJECT_ROOT,
  };
  return { io, stdout: () => stdout, stderr: () => stderr };
}

/**
 * Runs `rule-server <args>` in this process, as `bun src/main.ts <args>` would run in PROJECT_ROOT,
 * with the given standard input. `serve` and `lsp` own their process: use runCliProcess (their --help runs here).
 */
export async function runCli(
  args: readonly string[],
  input: string | Uint8Array = "",
  surroundings: CliSurroundings = {},
): Promise<CliRun> {
  const [command, ...rest] = args;
  const help = rest.includes("--help") || rest.includes("-h");
  if ((command === undefined || command === "serve" || command === "lsp") && !help)
    throw new Error(`runCli runs commands in process; run ${command ?? "serve"} with runCliProcess`);
  const captured = capturedIo(input, surroundings);
  const status = await runCommand(args, captured.io);
  return { status, stdout: captured.stdout(), stderr: captured.stderr() };
}

/** Runs `bun src/main.ts <args>` as a child process in PROJECT_ROOT with the given standard input. */
export async function runCliProcess(args: readonly string[], input: string | Uint8Array = ""): Promise<CliRun> {
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
