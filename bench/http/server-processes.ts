/**
 * The servers the HTTP benchmark drives, each a process of its own (so that its CPU time is its
 * own), pinned to the server core when there are two or more.
 */
import { join } from "node:path";
import { PINNING, pinned } from "./wrk.ts";

export interface BenchServer {
  readonly url: string;
  readonly pid: number;
  stop(): void;
}

const ROOT = join(import.meta.dir, "..", "..");
export const BENCH_TOKEN = "bench-token";

/** A bare Bun.serve: `fixed` answers a fixed body, `floor` parses the body and answers it. */
export function startBareServer(kind: "fixed" | "floor"): Promise<BenchServer> {
  return startPortPrinter([join(import.meta.dir, "bare-server.ts"), kind]);
}

/** A bare Bun.serve that answers with the engine alone on a rules directory (engine-only-server.ts). */
export function startEngineOnlyServer(rulesDir: string): Promise<BenchServer> {
  return startPortPrinter([join(import.meta.dir, "engine-only-server.ts"), rulesDir]);
}

/** A bench server script that prints its port on its first line. */
async function startPortPrinter(script: readonly string[]): Promise<BenchServer> {
  const child = Bun.spawn(pinned(PINNING?.server, [process.execPath, ...script]), {
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  const port = Number(new TextDecoder().decode(value).trim());
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill("SIGKILL") };
}

/** How rule-server is started: from source by default, or a release executable. */
const FROM_SOURCE = [process.execPath, join(ROOT, "src", "main.ts")];

/** rule-server on a rules directory, with `env` beside the bench's own settings; resolves once it listens, with the time that took. */
export async function startRuleServer(
  rulesDir: string,
  workers: number,
  command: readonly string[] = FROM_SOURCE,
  env: Record<string, string> = {},
): Promise<BenchServer & { startupMs: number; exited: Promise<number> }> {
  const started = performance.now();
  const child = spawnRuleServer(rulesDir, workers, command, env);
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!/"msg":"listening"/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the server did not start:\n${text}`);
    text += new TextDecoder().decode(value);
  }
  const startupMs = performance.now() - started;
  const port = Number(/"port":(\d+)/.exec(text)![1]);
  // Request log lines go to a pipe nobody reads; drain it so the server never blocks on it.
  void (async () => {
    for (;;) if ((await reader.read()).done) break;
  })();
  // A server given TLS files says so in its listening line, and answers HTTPS only.
  const scheme = /"tls":\{/.test(text) ? "https" : "http";
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    pid: child.pid,
    startupMs,
    stop: () => child.kill("SIGKILL"),
    exited: child.exited,
  };
}

/** rule-server spawned pinned, on a rules directory with the bench's settings and `env`, its log lines on a pipe. */
export function spawnRuleServer(
  rulesDir: string,
  workers: number,
  command: readonly string[] = FROM_SOURCE,
  env: Record<string, string> = {},
) {
  return Bun.spawn(pinned(PINNING?.server, command), {
    cwd: ROOT,
    env: {
      ...process.env,
      RULES_DIR: rulesDir,
      PORT: "0",
      RULE_SERVER_TOKEN: BENCH_TOKEN,
      DRAIN_SECONDS: "0",
      RULE_SERVER_WORKERS: String(workers),
      ...env,
    },
    stdout: "pipe",
    stderr: "inherit",
  });
}
