/**
 * Log lines to standard output, batched: lines written in one turn of the event loop go out in
 * one write, which under load costs a fraction of a write per line. `flushStandardOutput` writes
 * what is pending and waits for it, so nothing is lost when the process exits.
 */
let pending: string[] = [];
let scheduled = false;

export function writeToStandardOutput(line: string): void {
  pending.push(line);
  if (!scheduled) {
    scheduled = true;
    setImmediate(() => void flushStandardOutput());
  }
}

export function flushStandardOutput(): Promise<void> {
  scheduled = false;
  if (pending.length === 0) return Promise.resolve();
  const text = pending.join("");
  pending = [];
  return new Promise((resolve) => process.stdout.write(text, () => resolve()));
}
