import type { Subprocess } from "bun";
import { readFileSync } from "node:fs";
import { MAIN, PROJECT_ROOT } from "./run-cli.ts";

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export interface PublishedDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  code?: string;
  source?: string;
  message: string;
  data?: { didYouMean?: string; rule?: string };
  relatedInformation?: { location: { uri: string }; message: string }[];
}

/**
 * A language client for the tests: a real `rule-server lsp` process spoken to over its standard
 * streams with the protocol's framing (Content-Length headers, JSON-RPC 2.0). Requests resolve
 * with their result or reject with their error; diagnostics are kept per URI, the latest winning.
 */
export class LspClient {
  private readonly child: Subprocess<"pipe", "pipe", "pipe">;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly diagnostics = new Map<string, PublishedDiagnostic[]>();
  private readonly diagnosticCounts = new Map<string, number>();
  private buffer = new Uint8Array(0);
  stderr = "";

  /** `wrapper` runs the server under another command (the benchmark pins it with taskset). */
  constructor(wrapper: readonly string[] = []) {
    const child = Bun.spawn([...wrapper, process.execPath, MAIN, "lsp"], {
      cwd: PROJECT_ROOT,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    this.child = child;
    void this.read();
    void (async () => {
      for await (const chunk of child.stderr) this.stderr += new TextDecoder().decode(chunk);
    })();
  }

  get exited(): Promise<number> {
    return this.child.exited;
  }

  /** Sends raw bytes, framing and all: for the tests of malformed input. */
  sendRaw(bytes: string): void {
    this.child.stdin.write(bytes);
    this.child.stdin.flush();
  }

  send(message: object): void {
    const body = JSON.stringify({ jsonrpc: "2.0", ...message });
    this.sendRaw(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }

  request<Result = unknown>(method: string, params: unknown = {}, timeoutMs = 15000): Promise<Result> {
    const id = this.nextId++;
    return new Promise<Result>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer to ${method} within ${timeoutMs} ms; stderr:\n${this.stderr}`)),
        timeoutMs,
      );
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as Result);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.send({ id, method, params });
    });
  }

  notify(method: string, params: unknown = {}): void {
    this.send({ method, params });
  }

  async initialize(rootPath?: string): Promise<{ capabilities: Record<string, unknown> }> {
    const result = await this.request<{ capabilities: Record<string, unknown> }>("initialize", {
      processId: process.pid,
      rootUri: rootPath === undefined ? null : Bun.pathToFileURL(rootPath).href,
      capabilities: {},
    });
    this.notify("initialized", {});
    return result;
  }

  open(uri: string, text: string, languageId = "yaml"): void {
    this.notify("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
  }

  /** How many times diagnostics were published for a URI. */
  publishedCount(uri: string): number {
    return this.diagnosticCounts.get(uri) ?? 0;
  }

  latestDiagnostics(uri: string): PublishedDiagnostic[] | undefined {
    return this.diagnostics.get(uri);
  }

  /** Waits for diagnostics published for a URI after `after` publications, that satisfy `test`. */
  async waitForDiagnostics(
    uri: string,
    test: (diagnostics: PublishedDiagnostic[]) => boolean = () => true,
    after = 0,
    timeoutMs = 15000,
  ): Promise<PublishedDiagnostic[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const latest = this.diagnostics.get(uri);
      if (latest !== undefined && this.publishedCount(uri) > after && test(latest)) return latest;
      if (Date.now() > deadline)
        throw new Error(`no matching diagnostics for ${uri}: ${JSON.stringify(latest)}; stderr:\n${this.stderr}`);
      await Bun.sleep(5);
    }
  }

  async shutdown(): Promise<number> {
    await this.request("shutdown");
    this.notify("exit");
    return await this.exited;
  }

  /** The server's resident memory (Linux), in bytes. */
  residentBytes(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill("SIGKILL");
  }

  private async read(): Promise<void> {
    for await (const chunk of this.child.stdout) {
      const joined = new Uint8Array(this.buffer.length + chunk.length);
      joined.set(this.buffer);
      joined.set(chunk, this.buffer.length);
      this.buffer = joined;
      this.drain();
    }
  }

  private drain(): void {
    for (;;) {
      const text = new TextDecoder().decode(this.buffer);
      const headerEnd = text.indexOf("\r\n\r\n");
      if (headerEnd === -1) return;
      const length = Number(/Content-Length: (\d+)/i.exec(text.slice(0, headerEnd))?.[1]);
      const headerBytes = Buffer.byteLength(text.slice(0, headerEnd + 4));
      if (this.buffer.length < headerBytes + length) return;
      const body = new TextDecoder().decode(this.buffer.slice(headerBytes, headerBytes + length));
      this.buffer = this.buffer.slice(headerBytes + length);
      this.dispatch(
        JSON.parse(body) as {
          id?: number;
          method?: string;
          params?: unknown;
          result?: unknown;
          error?: { message: string; code: number };
        },
      );
    }
  }

  private dispatch(message: {
    id?: number;
    method?: string;
    params?: unknown;
    result?: unknown;
    error?: { message: string; code: number };
  }): void {
    if (message.method !== undefined) {
      if (message.id !== undefined) this.send({ id: message.id, result: null });
      if (message.method === "textDocument/publishDiagnostics") {
        const params = message.params as { uri: string; diagnostics: PublishedDiagnostic[] };
        this.diagnostics.set(params.uri, params.diagnostics);
        this.diagnosticCounts.set(params.uri, (this.diagnosticCounts.get(params.uri) ?? 0) + 1);
      }
      return;
    }
    const pending = message.id === undefined ? undefined : this.pending.get(message.id);
    if (pending === undefined) return;
    this.pending.delete(message.id!);
    if (message.error !== undefined)
      pending.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
    else pending.resolve(message.result);
  }
}

export { PROJECT_ROOT };
