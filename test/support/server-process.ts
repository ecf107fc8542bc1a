import type { Subprocess } from "bun";
import { MAIN, PROJECT_ROOT } from "./run-cli.ts";

/**
 * A real `rule-server` process for a scenario: started with the given environment on port 0,
 * its port read from the `listening` log line, its log lines kept for assertions.
 */
export interface ServerProcess {
  readonly port: number;
  readonly url: string;
  readonly logs: () => Record<string, unknown>[];
  readonly output: () => string;
  signal(name: NodeJS.Signals): void;
  /** Resolves with the exit status. */
  readonly exited: Promise<number>;
  /** Waits until a log line satisfies the test (polls the log). */
  waitForLog(test: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  kill(): Promise<void>;
}

export const TOKEN = "test-token-0123456789";

export function serverEnvironment(
  rulesDir: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({
    ...process.env,
    RULES_DIR: rulesDir,
    PORT: "0",
    RULE_SERVER_TOKEN: TOKEN,
    DRAIN_SECONDS: "0",
    ...extra,
  })) {
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/** Starts the server; rejects with the output when it exits before listening. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = Bun.spawn([process.execPath, MAIN], { cwd: PROJECT_ROOT, env, stdout: "pipe", stderr: "pipe" });
  let text = "";
  const decoder = new TextDecoder();
  const pump = (async () => {
    for await (const chunk of child.stdout as ReadableStream<Uint8Array>)
      text += decoder.decode(chunk, { stream: true });
  })();
  const stderr = new Response(child.stderr).text();
  const logs = (): Record<string, unknown>[] =>
    text
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line));
  const waitForLog = async (
    test: (line: Record<string, unknown>) => boolean,
    timeoutMs = 10000,
  ): Promise<Record<string, unknown>> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = logs().find(test);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(
          `no matching log line in:\n${text}${await Promise.race([stderr, Bun.sleep(10).then(() => "")])}`,
        );
      if (child.exitCode !== null) {
        await pump;
        const late = logs().find(test);
        if (late) return late;
        throw new Error(`the server exited with ${child.exitCode}:\n${text}${await stderr}`);
      }
      await Bun.sleep(20);
    }
  };
  const listening = await waitForLog((line) => line.msg === "listening");
  const port = listening.port as number;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    logs,
    output: () => text,
    signal: (name) => child.kill(name),
    exited: child.exited.then(async (status) => {
      await pump;
      return status;
    }),
    waitForLog,
    kill: async () => {
      if (child.exitCode === null) child.kill("SIGKILL");
      await child.exited;
    },
  };
}

/** Runs the server expecting it to stop before listening; returns its status and log lines. */
export async function startExpectingFailure(
  env: Record<string, string>,
): Promise<{ status: number; logs: Record<string, unknown>[]; output: string }> {
  const child: Subprocess = Bun.spawn([process.execPath, MAIN], {
    cwd: PROJECT_ROOT,
    env,
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), 15000);
  const [output, status] = await Promise.all([new Response(child.stdout as ReadableStream).text(), child.exited]);
  clearTimeout(timer);
  const logs = output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
  return { status, logs, output };
}
