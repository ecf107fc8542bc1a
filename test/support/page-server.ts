import type { Server } from "bun";

/**
 * A static server on 127.0.0.1 for browser tests: fixed files by path, `POST /report/<name>` for
 * what the page sends back, and `GET /gate/<name>` that the page awaits until the test opens it.
 */
export interface PageServer {
  readonly url: string;
  /** Every path the browser asked for, in order. */
  readonly requested: string[];
  /** Resolves with the parsed body the page reports under this name. */
  report(name: string): Promise<unknown>;
  /** Lets a page waiting on `/gate/<name>` go on. */
  open(name: string): void;
  stop(): void;
}

/** A promise and the functions that settle it (ES2024's Pending, which lib ES2023 lacks). */
interface Pending<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

function pending<T>(): Pending<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

export type PageFile = { readonly type: string; readonly body: string | Uint8Array | (() => string) };

export function servePage(files: Readonly<Record<string, PageFile>>): PageServer {
  const reports = new Map<string, Pending<unknown>>();
  const gates = new Map<string, Pending<void>>();
  const waiting = <T>(map: Map<string, Pending<T>>, name: string): Pending<T> => {
    let entry = map.get(name);
    if (!entry) map.set(name, (entry = pending<T>()));
    return entry;
  };
  const requested: string[] = [];
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      requested.push(path);
      if (request.method === "POST" && path.startsWith("/report/")) {
        waiting(reports, path.slice("/report/".length)).resolve(JSON.parse(await request.text()));
        return new Response(null, { status: 204 });
      }
      if (path.startsWith("/gate/")) {
        await waiting(gates, path.slice("/gate/".length)).promise;
        return new Response("open");
      }
      const file = files[path === "/" ? "/index.html" : path];
      if (!file) return new Response("not found", { status: 404 });
      return new Response(typeof file.body === "function" ? file.body() : file.body, {
        headers: { "Content-Type": file.type, "Cache-Control": "no-store" },
      });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requested,
    report: (name) => waiting(reports, name).promise,
    open: (name) => waiting(gates, name).resolve(),
    stop: () => void server.stop(true),
  };
}
