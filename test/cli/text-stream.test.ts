import { expect, test } from "bun:test";
import { streamLines, streamText } from "../../src/cli/text-stream.ts";

/** Text from byte streams as standard input and files deliver them: in chunks cut anywhere. */
async function* chunks(...parts: (string | readonly number[])[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === "string" ? new TextEncoder().encode(part) : new Uint8Array(part);
}

async function lines(input: AsyncIterable<Uint8Array>): Promise<string[]> {
  const read: string[] = [];
  for await (const line of streamLines(input)) read.push(line);
  return read;
}

// "é" is 0xc3 0xa9 in UTF-8: here cut between two chunks.
const SPLIT_E_ACUTE = ["caf", [0xc3], [0xa9, 0x0a]] as const;

test("the whole text, a character cut between chunks decoded whole", async () => {
  expect(await streamText(chunks(...SPLIT_E_ACUTE, "{}"))).toBe("café\n{}");
  expect(await streamText(chunks())).toBe("");
});

test("lines cut between chunks, without their \\n or \\r\\n, the last one without a line feed kept", async () => {
  expect(await lines(chunks("a\r\nb", "c\n", "\n", ...SPLIT_E_ACUTE, "last"))).toEqual(["a", "bc", "", "café", "last"]);
});

test("a stray carriage return inside a line stays in it; a final line feed adds no empty line", async () => {
  expect(await lines(chunks("a\rb\n"))).toEqual(["a\rb"]);
  expect(await lines(chunks())).toEqual([]);
});
