/**
 * A serving process's standard output, passed on whole lines at a time to the supervisor's, so that
 * the server's log is one stream whose lines never interleave: pipes keep a write whole only up to
 * 4 KiB, and processes write their lines in larger batches. Resolves when the process closes it.
 */
export async function relayLines(stream: ReadableStream<Uint8Array>, write: (lines: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let partial = "";
  for await (const chunk of stream) {
    const text = partial + decoder.decode(chunk, { stream: true });
    const end = text.lastIndexOf("\n");
    if (end === -1) {
      partial = text;
      continue;
    }
    write(end === text.length - 1 ? text : text.slice(0, end + 1));
    partial = end === text.length - 1 ? "" : text.slice(end + 1);
  }
  partial += decoder.decode();
  if (partial !== "") write(`${partial}\n`);
}
