import { expect, test } from "bun:test";
import { spanBatch } from "../../src/tracing/span-batch.ts";
import type { FinishedSpan } from "../../src/tracing/finished-span.ts";
import { SpanExporter } from "../../src/tracing/span-exporter.ts";
import { readTraceSettings } from "../../src/tracing/trace-settings.ts";
import { Tracer } from "../../src/tracing/tracer.ts";
import { decodeProtobufTraceRequest } from "../support/otlp-protobuf-request.ts";

/**
 * A span's ids are kept twice, as hex (log lines, records, JSON) and as bytes (the protobuf
 * encoder copies them): the two must always say the same ids, for new traces, continued ones and
 * child spans, and no two spans may share bytes.
 */
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";

const settings = readTraceSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1" }, [])!;

function tracerKeeping(ended: FinishedSpan[]): Tracer {
  const exporter = new SpanExporter(
    settings,
    { name: "test", version: "0" },
    {
      dropped: () => {},
      exported: () => {},
      failing: () => {},
      recovered: () => {},
    },
  );
  exporter.add = (span) => void ended.push(span);
  return new Tracer(settings, exporter);
}

/** The ids a span's bytes say, as the collector reads them. */
function encodedIds(span: FinishedSpan): { traceId: string; spanId: string; parentSpanId?: string } {
  const batch = spanBatch(settings, { name: "t", version: "0" });
  batch.add(span);
  const [read] = decodeProtobufTraceRequest(batch.body()).spans;
  return {
    traceId: read!.traceId,
    spanId: read!.spanId,
    ...(read!.parentSpanId ? { parentSpanId: read!.parentSpanId } : {}),
  };
}

test("a new trace's ids are lower-case hex of 16 and 8 bytes, differ from span to span, and are the bytes encoded", () => {
  const ended: FinishedSpan[] = [];
  const tracer = tracerKeeping(ended);
  // More spans than one block of random bytes holds: claims go on into the next block.
  const spans = Array.from({ length: 300 }, () => tracer.startServerSpan("GET /", null, null));
  for (const span of spans) span.end({});
  expect(new Set(spans.map((span) => span.spanId)).size).toBe(300);
  expect(new Set(spans.map((span) => span.traceId)).size).toBe(300);
  for (const span of ended) {
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(encodedIds(span)).toEqual({ traceId: span.traceId, spanId: span.spanId });
  }
});

test("a continued trace keeps the caller's trace and names the caller's span as parent, in hex and in bytes", () => {
  const ended: FinishedSpan[] = [];
  const span = tracerKeeping(ended).startServerSpan("POST /evaluations", `00-${TRACE}-${PARENT}-01`, "k=v");
  span.end({});
  expect([span.traceId, ended[0]!.parentSpanId, ended[0]!.traceState]).toEqual([TRACE, PARENT, "k=v"]);
  expect(encodedIds(ended[0]!)).toEqual({ traceId: TRACE, spanId: span.spanId, parentSpanId: PARENT });
});

test("a child span is in its parent's trace with the parent's span as its parent, in hex and in bytes", () => {
  const ended: FinishedSpan[] = [];
  const tracer = tracerKeeping(ended);
  for (const traceparent of [null, `00-${TRACE}-${PARENT}-01`]) {
    const parent = tracer.startServerSpan("POST /evaluations", traceparent, null);
    const child = parent.child("evaluate in a worker");
    // Other spans claim bytes between: the child's stay its own.
    for (let i = 0; i < 200; i++) tracer.startServerSpan("GET /", null, null);
    child.end({});
    const finished = ended.at(-1)!;
    expect([finished.traceId, finished.parentSpanId, finished.spanId]).toEqual([
      parent.traceId,
      parent.spanId,
      child.spanId,
    ]);
    expect(encodedIds(finished)).toEqual({
      traceId: parent.traceId,
      spanId: child.spanId,
      parentSpanId: parent.spanId,
    });
  }
});
