import { expect } from "bun:test";
import { connect, type Socket } from "node:net";

/** What became of one request of a keep-alive client: answered whole, answered in part, or not at all. */
export type Outcome = "complete" | "partial" | "none";

/**
 * A keep-alive client on a raw socket: one request at a time, a new connection when the server
 * closes one, never a retry. Stops at the first request that gets no complete answer.
 */
export async function keepAliveClient(
  port: number,
  name: string,
  outcomes: Map<string, Outcome>,
  connections: { count: number },
): Promise<void> {
  for (let sequence = 0; ; ) {
    const socket = await new Promise<Socket | undefined>((resolve) => {
      const candidate = connect(port, "127.0.0.1", () => resolve(candidate));
      candidate.once("error", () => resolve(undefined));
    });
    if (socket === undefined) return;
    connections.count++;
    let buffer = Buffer.alloc(0);
    let closed = false;
    let wake: (() => void) | undefined;
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      wake?.();
    });
    socket.on("close", () => {
      closed = true;
      wake?.();
    });
    socket.on("error", () => undefined);
    for (;;) {
      const id = `${name}-${sequence++}`;
      outcomes.set(id, "none");
      socket.write(`GET /rulesets HTTP/1.1\r\nHost: test\r\nX-Request-Id: ${id}\r\n\r\n`);
      let closeAfter = false;
      for (;;) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end !== -1) {
          const head = buffer.subarray(0, end).toString("latin1");
          const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? "0");
          if (buffer.length >= end + 4 + length) {
            outcomes.set(id, "complete");
            closeAfter = /\r\nconnection: *close/i.test(head);
            buffer = buffer.subarray(end + 4 + length);
            break;
          }
        }
        if (closed) {
          if (buffer.length > 0) outcomes.set(id, "partial");
          return;
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
      if (closeAfter) {
        socket.end();
        break;
      }
    }
  }
}

/**
 * What a drain under the load of `clients` keep-alive clients (named c0, c1, ...) must leave: every
 * request the server read (its `request` log lines) answered whole, none in part; the only ones
 * without an answer never read (each client's last, sent after the stop); the clients reconnected
 * (the drain's `Connection: close`). Gives the log lines of the requests read.
 */
export function expectNoReadRequestLost<Line extends { msg?: unknown; requestId?: unknown }>(
  logs: readonly Line[],
  outcomes: ReadonlyMap<string, Outcome>,
  connections: { count: number },
  clients = 8,
): Line[] {
  const read = logs.filter((line) => line.msg === "request" && String(line.requestId).startsWith("c"));
  expect(read.length).toBeGreaterThan(50);
  for (const line of read) expect(outcomes.get(String(line.requestId)), String(line.requestId)).toBe("complete");
  expect([...outcomes.values()].filter((outcome) => outcome === "partial")).toEqual([]);
  const unanswered = [...outcomes].filter(([, outcome]) => outcome === "none").map(([id]) => id);
  expect(unanswered.length).toBeLessThanOrEqual(clients);
  for (const id of unanswered) expect(read.some((line) => line.requestId === id)).toBe(false);
  expect(connections.count).toBeGreaterThan(clients * 3);
  return read;
}
