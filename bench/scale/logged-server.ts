/**
 * rule-server from source on a rules directory, pinned like the HTTP bench's servers, whose log
 * lines the bench waits for: `listening` for the start-up, `rules reloaded` for a reload.
 */
import { spawnRuleServer } from "../http/server-processes.ts";
import { ServerLogLines } from "./server-log-lines.ts";

const RELOADED = /"msg":"(rules reloaded|reload refused[^"]*)"/;

export interface LoggedServer {
  readonly url: string;
  readonly pid: number;
  /** From the spawn to the `listening` line, in milliseconds. */
  readonly startupMs: number;
  /** Sends SIGHUP and resolves with the milliseconds until `rules reloaded`; throws on a refused reload. */
  reload(): Promise<number>;
  stop(): Promise<void>;
}

export async function startLoggedServer(rulesDir: string): Promise<LoggedServer> {
  const started = performance.now();
  const child = spawnRuleServer(rulesDir, 0);
  const lines = new ServerLogLines(child.stdout as ReadableStream<Uint8Array>);
  const stop = async (): Promise<void> => {
    child.kill("SIGKILL");
    await child.exited;
  };
  try {
    const listening = await lines.next(/"msg":"listening"/);
    const url = `http://127.0.0.1:${Number(/"port":(\d+)/.exec(listening.text)![1])}`;
    const ready = await fetch(`${url}/readyz`);
    if (ready.status !== 200) throw new Error(`/readyz answers ${ready.status} after the listening line`);
    return {
      url,
      pid: child.pid,
      startupMs: listening.at - started,
      async reload() {
        const reloaded = lines.next(RELOADED);
        const signalled = performance.now();
        child.kill("SIGHUP");
        const line = await reloaded;
        if (!line.text.includes('"msg":"rules reloaded"')) throw new Error(`the reload was refused: ${line.text}`);
        return line.at - signalled;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
