/** The text of a byte stream (UTF-8), all of it: a request on standard input. */
export async function streamText(input: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of input) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** The lines of a byte stream (UTF-8), without their `\n` (or `\r\n`), as they arrive. */
export async function* streamLines(input: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of input) {
    const text = pending + decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
      yield withoutCarriageReturn(text.slice(start, newline));
      start = newline + 1;
    }
    pending = text.slice(start);
  }
  pending += decoder.decode();
  if (pending !== "") yield withoutCarriageReturn(pending);
}

function withoutCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}
