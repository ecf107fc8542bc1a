import { passOnToStandardOutput } from "../../standard-output/standard-output.ts";

/**
 * A serving process's standard output, passed on whole lines at a time to the supervisor's, so that
 * the server's log is one stream whose lines never interleave: pipes keep a write whole only up to
 * 4 KiB, and processes write their lines in larger batches. The bytes go on as they came, never
 * decoded: every request's line passes here. Resolves when the process closes its output.
 */
export async function relayLines(
  stream: ReadableStream<Uint8Array>,
  write: (lines: Uint8Array) => void = passOnToStandardOutput,
): Promise<void> {
  let partial: Uint8Array | undefined;
  for await (const chunk of stream) {
    const end = chunk.lastIndexOf(NEWLINE);
    if (end === -1) {
      partial = joined(partial, chunk);
      continue;
    }
    write(joined(partial, chunk.subarray(0, end + 1)));
    partial = end + 1 < chunk.length ? chunk.slice(end + 1) : undefined;
  }
  if (partial !== undefined) write(joined(partial, Uint8Array.of(NEWLINE)));
}

const NEWLINE = 10;

function joined(first: Uint8Array | undefined, second: Uint8Array): Uint8Array {
  if (first === undefined) return second;
  const both = new Uint8Array(first.length + second.length);
  both.set(first);
  both.set(second, first.length);
  return both;
}
