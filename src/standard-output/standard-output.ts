/**
 * Log lines to standard output, batched: lines written in one turn of the event loop go out in
 * one write, which under load costs a fraction of a write per line. `flushStandardOutput` writes
 * what is pending and waits for it, so nothing is lost when the process exits.
 */
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
  return new Promise((resolve) => process.stdout.write(text, () => resolve()));
}
