import { expect, test } from "bun:test";
import { ProtobufWriter } from "../../src/tracing/protobuf-writer.ts";
import { nanoseconds } from "../../src/tracing/span-time.ts";
import { spanBatch } from "../../src/tracing/span-batch.ts";
import { decodeProtobufTraceRequest } from "../support/otlp-protobuf-request.ts";

/** Span times on the wire: fixed64 nanoseconds written without BigInt, equal to the exact conversion. */
test("fixed64Nanoseconds writes the nanoseconds nanoseconds() computes, for times now, long past and far ahead", () => {
  const times = [
    0,
    0.000001,
    1.5,
    1_764_000_000_000.125,
    performance.timeOrigin + performance.now(),
    4_102_444_800_000.75,
  ];
  for (let i = 0; i < 2000; i++) times.push(Math.random() * 5e12);
  for (const ms of times) {
    const bytes = new ProtobufWriter(16).fixed64Nanoseconds(7, ms).finish();
    expect(bytes[0]).toBe((7 << 3) | 1);
    const written = new DataView(bytes.buffer, bytes.byteOffset + 1, 8).getBigUint64(0, true);
    expect(written, `${ms}`).toBe(nanoseconds(ms));
  }
});

test("strings and nested messages of every length decode to what was written: one-byte lengths below 128, longer ones moved", () => {
  const values = [
    "",
    "a",
    "é",
    "x".repeat(42),
    "x".repeat(43),
    "x".repeat(127),
    "x".repeat(128),
    "é".repeat(100),
    "z".repeat(5000),
  ];
  const attributes: Record<string, string | number | boolean> = { int: 7, negative: -3, real: 2.5, flag: false };
  values.forEach((value, index) => (attributes[`key${index}${"k".repeat(index * 20)}`] = value));
  const span = {
    traceId: "0af7651916cd43dd8448eb211c80319c",
    spanId: "b7ad6b7169203331",
    name: "n".repeat(200),
    kind: "server" as const,
    startMs: 1_764_000_000_000.5,
    endMs: 1_764_000_000_001.25,
    attributes,
    error: "answered 503 ".repeat(20),
  };
  const batch = spanBatch("http/protobuf");
  batch.add(span);
  const decoded = decodeProtobufTraceRequest(
    batch.body({ "service.name": "s".repeat(300) }, { name: "rule-server", version: "1" }),
  );
  expect(decoded.resource["service.name"]).toBe("s".repeat(300));
  const [read] = decoded.spans;
  expect(read!.name).toBe(span.name);
  expect(read!.attributes).toEqual(attributes);
  expect(read!.status).toEqual({ code: 2, message: span.error });
  expect(read!.startTimeUnixNano).toBe(nanoseconds(span.startMs));
});
