/**
 * A server's standard output, read line by line only while someone waits for a line: the request
 * log lines of a load test are thrown away undecoded, so that reading them costs the bench as
 * little as it can.
 */
export interface LogLine {
  readonly text: string;
  /** performance.now() when the line was read. */
  readonly at: number;
}

interface Waiter {
  readonly pattern: RegExp;
  readonly resolve: (line: LogLine) => void;
  readonly reject: (error: Error) => void;
}

const KEPT_LINES = 20;

export class ServerLogLines {
  private readonly waiters: Waiter[] = [];
  private partial = "";
  private ended = false;
  /** The last lines decoded, for the error when the server ends early. */
  private readonly recent: string[] = [];

  constructor(stream: ReadableStream<Uint8Array>) {
    void this.read(stream);
  }

  /** The next line matching `pattern` from now on; rejects if the output ends first. */
  next(pattern: RegExp): Promise<LogLine> {
    if (this.ended) return Promise.reject(this.endedError());
    return new Promise((resolve, reject) => this.waiters.push({ pattern, resolve, reject }));
  }

  private async read(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      if (this.waiters.length === 0) {
        // A line cut here is only ever the tail of a request line nobody waits for.
        this.partial = "";
        continue;
      }
      const at = performance.now();
      const lines = (this.partial + decoder.decode(chunk, { stream: true })).split("\n");
      this.partial = lines.pop()!;
      for (const text of lines) this.take({ text, at });
    }
    this.ended = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(this.endedError());
  }

  private take(line: LogLine): void {
    this.recent.push(line.text);
    if (this.recent.length > KEPT_LINES) this.recent.shift();
    const index = this.waiters.findIndex((waiter) => waiter.pattern.test(line.text));
    if (index >= 0) this.waiters.splice(index, 1)[0]!.resolve(line);
  }

  private endedError(): Error {
    return new Error(`the server's output ended; its last lines:\n${this.recent.join("\n")}`);
  }
}
