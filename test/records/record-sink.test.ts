import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DecisionRecordSink, RECORDS_FLUSH_MS, type RecordWriteProblem } from "../../src/records/record-sink.ts";

/**
 * The sink encodes records into one buffer as they come and writes it at the end of the turn,
 * once it holds enough, or at once for a record larger than it: whatever the sizes and
 * characters, the file holds each line exactly, in order.
 */
const work = mkdtempSync(join(tmpdir(), "rule-server-record-sink-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const failures: [number, RecordWriteProblem][] = [];
const events = {
  failed: (records: number, problem: RecordWriteProblem) => void failures.push([records, problem]),
  recovered: () => undefined,
};
const endOfTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** Past the sink's wait: its timer, set before this one and shorter, has fired. */
const written = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, RECORDS_FLUSH_MS + 5));
const head = (index: number): string => `{"time":"2026-11-26T00:00:00.000Z","requestId":"r${index}",`;
/** A record's line as the evaluating thread hands it over: whole, newline included. */
const line = (index: number, rest: string): string => `${head(index)}${rest}\n`;

test("lines of every size and script arrive whole and in order, one buffer or many", async () => {
  const path = join(work, "mixed.jsonl");
  const sink = new DecisionRecordSink({ kind: "file", path }, events);
  const texts = [
    "plain",
    "Grüße, Überweisung",
    "€ 5 · 日本語 · 🧾 receipt",
    "\u2028 line separator",
    "x".repeat(300_000),
    "é".repeat(200_000),
    "🧾".repeat(150_000),
  ];
  const expected: string[] = [];
  for (let index = 0; index < 60; index++) {
    const rest = `"n":${index},"text":${JSON.stringify(texts[index % texts.length])}}`;
    sink.write(line(index, rest));
    expected.push(line(index, rest));
    if (index % 7 === 0) await endOfTurn();
  }
  await written();
  expect(readFileSync(path, "utf8")).toBe(expected.join(""));
  expect(statSync(path).mode & 0o777).toBe(0o600);
  sink.close();
});

test("a long record of characters UTF-8 writes in four bytes, after others that nearly fill the buffer, is not cut", async () => {
  const path = join(work, "multibyte.jsonl");
  const sink = new DecisionRecordSink({ kind: "file", path }, events);
  const expected: string[] = [];
  // 240 records of about a kilobyte: just under the quarter MiB that is written at once.
  for (let index = 0; index < 240; index++) {
    const rest = `"pad":"${"p".repeat(1000)}"}`;
    sink.write(line(index, rest));
    expected.push(line(index, rest));
  }
  expect(readFileSync(path, "utf8")).toBe("");
  // 250,000 receipts: half a million UTF-16 units, a million bytes of UTF-8.
  const rest = `"text":"${"🧾".repeat(250_000)}"}`;
  sink.write(line(240, rest));
  expected.push(line(240, rest));
  await written();
  expect(readFileSync(path, "utf8")).toBe(expected.join(""));
  sink.close();
});

test("records wait a few milliseconds past their turn to be written together, unless they fill the buffer first", async () => {
  const path = join(work, "turn.jsonl");
  const sink = new DecisionRecordSink({ kind: "file", path }, events);
  sink.write(line(0, '"small":true}'));
  expect(readFileSync(path, "utf8")).toBe("");
  await endOfTurn();
  expect(readFileSync(path, "utf8")).toBe("");
  await written();
  expect(readFileSync(path, "utf8")).toBe(`${head(0)}"small":true}\n`);
  // A quarter of a MiB waiting is written without waiting.
  for (let index = 1; index <= 300; index++) sink.write(line(index, `"pad":"${"p".repeat(1000)}"}`));
  expect(readFileSync(path, "utf8").split("\n").length).toBeGreaterThan(200);
  sink.close();
  expect(readFileSync(path, "utf8").split("\n").filter(Boolean)).toHaveLength(301);
});

test("a write that fails counts the records it held as lost, and the sink says it is unavailable", async () => {
  const directory = join(work, "gone");
  mkdirSync(directory);
  const path = join(directory, "records.jsonl");
  const sink = new DecisionRecordSink({ kind: "file", path }, events);
  failures.length = 0;
  for (let index = 0; index < 5; index++) sink.write(line(index, '"x":1}'));
  rmSync(directory, { recursive: true });
  await written();
  // The file is gone with its directory and cannot be made again: all five are lost, none twice.
  expect(failures.reduce((lost, [records]) => lost + records, 0)).toBe(5);
  // Each failure says which step failed and the system's error: the directory is gone.
  expect(failures.length).toBeGreaterThan(0);
  for (const [, problem] of failures)
    expect(problem).toEqual({ step: "open", code: "ENOENT", message: expect.stringContaining(path) });
  expect(sink.lastProblem.code).toBe("ENOENT");
  expect(sink.available).toBe(false);
  sink.close();
});

test("a full disk refuses the write: the records it held are counted lost", async () => {
  // /dev/full takes the open and fails every write as a full disk does, for root and others alike.
  const sink = new DecisionRecordSink({ kind: "file", path: "/dev/full" }, events);
  failures.length = 0;
  sink.write(line(0, '"x":1}'));
  sink.write(line(1, '"x":2}'));
  await written();
  expect(failures).toEqual([[2, { step: "write", code: "ENOSPC", message: expect.stringContaining("no space left") }]]);
  expect(sink.available).toBe(false);
});
