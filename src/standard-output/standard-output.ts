import type { FileSink } from "bun";

/**
 * Log lines to standard output, batched: lines written in one turn of the event loop go out in
 * one write, which under load costs a fraction of a write per line. `flushStandardOutput` writes
 * what is pending and waits for it, so nothing is lost when the process exits.
 *
 * The lines go through Bun's own writer of file descriptor 1, not `process.stdout`: Node's stream
 * behind that is built on first use, ~15 ms of the executable's start-up (issue 40), and buys
 * nothing here. A reader gone (EPIPE) loses the lines, never the process.
 */
let output: FileSink | undefined;
let pending: string[] = [];
let scheduled = false;
/** How long lines wait before they go out: 0, the end of the event loop's turn; see batchStandardOutput. */
let batchMs = 0;

export function writeToStandardOutput(line: string): void {
  pending.push(line);
  if (!scheduled) {
    scheduled = true;
    if (batchMs === 0) setImmediate(() => void flushStandardOutput());
    else setTimeout(() => void flushStandardOutput(), batchMs);
  }
}

/**
 * Lines wait up to `ms` and go out in one write. A serving process of several (RULE_SERVER_PROCESSES)
 * writes to its supervisor, which passes the lines on: every batch costs it a wake-up, a read and
 * a write, so fewer and larger batches cost it less per line.
 */
export function batchStandardOutput(ms: number): void {
  batchMs = ms;
}

export function flushStandardOutput(): Promise<void> {
  scheduled = false;
  if (pending.length === 0) return Promise.resolve();
  const text = pending.join("");
  pending = [];
  return written(text);
}

/** Bytes to standard output as they are, after the lines pending: the supervisor's relay of its processes' lines. */
export function passOnToStandardOutput(bytes: Uint8Array): void {
  void flushStandardOutput();
  void written(bytes);
}

function written(data: string | Uint8Array): Promise<void> {
  output ??= Bun.stdout.writer();
  try {
    output.write(data);
    const flushed = output.flush();
    return flushed instanceof Promise ? flushed.then(ignore, ignore) : Promise.resolve();
  } catch {
    return Promise.resolve();
  }
}

function ignore(): void {}
