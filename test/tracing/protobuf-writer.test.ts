import { expect, test } from "bun:test";
import { ProtobufWriter } from "../../src/tracing/protobuf-writer.ts";
import { nanoseconds } from "../../src/tracing/span-time.ts";
import { spanBatch } from "../../src/tracing/span-batch.ts";
import { readTraceSettings } from "../../src/tracing/trace-settings.ts";
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
    ids: Buffer.from(`ffff0af7651916cd43dd8448eb211c80319cb7ad6b716920333100f067aa0ba902b7`, "hex"),
    idsAt: 2,
    traceId: "0af7651916cd43dd8448eb211c80319c",
    spanId: "b7ad6b7169203331",
    parentSpanId: "00f067aa0ba902b7",
    name: "n".repeat(200),
    kind: "server" as const,
    startMs: 1_764_000_000_000.5,
    endMs: 1_764_000_000_001.25,
    attributes,
    error: "answered 503 ".repeat(20),
  };
  const settings = readTraceSettings(
    { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1", OTEL_SERVICE_NAME: "s".repeat(300) },
    [],
  )!;
  const batch = spanBatch(settings, { name: "rule-server", version: "1" });
  batch.add(span);
  const decoded = decodeProtobufTraceRequest(batch.body());
  expect(decoded.resource["service.name"]).toBe("s".repeat(300));
  const [read] = decoded.spans;
  expect(read!.name).toBe(span.name);
  expect([read!.traceId, read!.spanId, read!.parentSpanId]).toEqual([span.traceId, span.spanId, span.parentSpanId]);
  expect(read!.attributes).toEqual(attributes);
  expect(read!.status).toEqual({ code: 2, message: span.error });
  expect(read!.startTimeUnixNano).toBe(nanoseconds(span.startMs));
});

test("spans of every size, and attributes repeated, alternating and past what is kept encoded, decode to what was written", () => {
  const settings = readTraceSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" }, [])!;
  const batch = spanBatch(settings, { name: "rule-server", version: "1" });
  const written: { name: string; attributes: Record<string, string | number | boolean> }[] = [];
  // A span under 128 bytes (its length moves back), one of 128 bytes to 16 KiB (in place), one past 16 KiB (moved forward).
  const names = ["n", "n".repeat(300), "n".repeat(20_000)];
  for (let index = 0; index < 1500; index++) {
    const attributes: Record<string, string | number | boolean> = {
      repeated: "acme.payments.transfers",
      alternating: index % 2 === 0 ? "allow" : "deny",
      // More values than a key keeps encoded: later ones are encoded every time.
      distinct: `caller-${index}`,
      status: index % 3 === 0 ? 200 : 422,
    };
    const name = names[index % names.length]!;
    written.push({ name, attributes });
    batch.add({
      ids: Buffer.alloc(32, index % 256),
      idsAt: 0,
      traceId: "",
      spanId: "",
      name,
      kind: "server",
      startMs: 1_764_000_000_000 + index,
      endMs: 1_764_000_000_001 + index,
      attributes,
    });
  }
  const read = decodeProtobufTraceRequest(batch.body()).spans;
  expect(read.map((span) => ({ name: span.name, attributes: span.attributes }))).toEqual(written);
});

test("a batch written into the buffer of one delivered before holds only its own spans", () => {
  const settings = readTraceSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" }, [])!;
  const span = (name: string) => ({
    ids: Buffer.alloc(32, 1),
    idsAt: 0,
    traceId: "",
    spanId: "",
    name,
    kind: "server" as const,
    startMs: 1,
    endMs: 2,
    attributes: {},
  });
  const first = spanBatch(settings, { name: "rule-server", version: "1" });
  for (let index = 0; index < 50; index++) first.add(span("first".repeat(20)));
  expect(decodeProtobufTraceRequest(first.body()).spans).toHaveLength(50);
  first.delivered();
  const second = spanBatch(settings, { name: "rule-server", version: "1" });
  second.add(span("second"));
  expect(decodeProtobufTraceRequest(second.body()).spans.map((read) => read.name)).toEqual(["second"]);
});
