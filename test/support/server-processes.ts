import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import type { ServerProcess } from "./server-process.ts";

/** Helpers of the RULE_SERVER_PROCESSES scenarios: which process answered, which are alive. */

export const TWO_PROCESSES = { RULE_SERVER_PROCESSES: "2" };

export interface Readiness {
  readonly status: string;
  readonly pid: number;
  readonly loadedAt: string;
  readonly lastReload?: { readonly at: string; readonly trigger: string; readonly outcome: string };
}

/**
 * One request on a connection of its own, which the server closes after the answer
 * (`Connection: close`). fetch keeps connections in a pool, and would send the next request over
 * one it has: to the same process, or to one that has died since.
 */
export async function requestOnNewConnection(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body = "",
): Promise<{ status: number; headers: Map<string, string>; text: string }> {
  const raw = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, "127.0.0.1", () => {
      const head = Object.entries({
        Host: "test",
        Connection: "close",
        "Content-Length": String(Buffer.byteLength(body)),
        ...headers,
      }).map(([name, value]) => `${name}: ${value}\r\n`);
      // Not ended: a server may take a half-closed connection as a client gone, and not answer it.
      socket.write(`${method} ${path} HTTP/1.1\r\n${head.join("")}\r\n${body}`);
    });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks)));
    socket.on("error", (error) => reject(new Error(`${method} ${path} on port ${port}: ${error.message}`)));
  });
  const end = raw.indexOf("\r\n\r\n");
  if (end === -1) throw new Error(`no complete answer: ${JSON.stringify(raw.toString("latin1"))}`);
  const [statusLine, ...lines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  const answerHeaders = new Map(
    lines.map(
      (line) =>
        [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()] as [string, string],
    ),
  );
  let content = raw.subarray(end + 4);
  if (answerHeaders.get("transfer-encoding") === "chunked") {
    const parts: Buffer[] = [];
    for (let at = 0; ; ) {
      const lineEnd = content.indexOf("\r\n", at);
      const size = Number.parseInt(content.subarray(at, lineEnd).toString("latin1"), 16);
      if (!(size > 0)) break;
      parts.push(content.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    content = Buffer.concat(parts);
  }
  return { status: Number(statusLine!.split(" ")[1]), headers: answerHeaders, text: content.toString("utf8") };
}

/** `/readyz` on a connection of its own: each one may reach another process. */
export async function readiness(port: number, headers: Record<string, string> = {}): Promise<Readiness> {
  return JSON.parse((await requestOnNewConnection(port, "GET", "/readyz", headers)).text) as Readiness;
}

/** The readiness of every process in `pids`, asked on new connections until each has answered. */
export async function readinessOfEach(
  port: number,
  pids: readonly number[],
  headers: Record<string, string> = {},
): Promise<Map<number, Readiness>> {
  const answers = new Map<number, Readiness>();
  for (let attempt = 0; attempt < 400 && answers.size < pids.length; attempt++) {
    const answer = await readiness(port, headers);
    answers.set(answer.pid, answer);
  }
  return answers;
}

/** The serving processes a supervisor started, from their log lines, in order. */
export function servingPids(server: ServerProcess): number[] {
  return server
    .logs()
    .filter((line) => line.msg === "serving process listening")
    .map((line) => line.pid as number);
}

/** The supervisor's pid, from its `listening` line. */
export function supervisorPid(server: ServerProcess): number {
  return server.logs().find((line) => line.msg === "listening")!.pid as number;
}

/**
 * Whether a process is still there: not reaped, and not a zombie all of whose threads have ended.
 * A killed process's leader turns zombie before its other threads have ended, and until the last
 * one has, its files (a listening socket) are still open. An orphan's zombie may never be reaped.
 */
export function alive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
    if (state !== "Z" && state !== "X") return true;
    return readdirSync(`/proc/${pid}/task`).length > 1;
  } catch {
    return false;
  }
}

/** Waits until none of `pids` is alive; false if some still are after `timeoutMs`. */
export async function allGone(pids: readonly number[], timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(alive)) {
    if (Date.now() > deadline) return false;
    await Bun.sleep(25);
  }
  return true;
}

/** A port nothing listens on now. */
export function freePort(): number {
  const probe = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = probe.port!;
  void probe.stop(true);
  return port;
}

/** Resident memory of a process in bytes, from /proc. */
export function residentBytes(pid: number): number {
  const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kilobytes ?? 0) * 1024;
}
