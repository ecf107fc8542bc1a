import { expect, test } from "bun:test";
import type { FinishedSpan } from "../../src/tracing/finished-span.ts";
import { spanBatch } from "../../src/tracing/span-batch.ts";
import { SpanExporter } from "../../src/tracing/span-exporter.ts";
import { readTraceSettings } from "../../src/tracing/trace-settings.ts";
import { decodeProtobufTraceRequest } from "../support/otlp-protobuf-request.ts";

/**
 * A batch's body is a view of a buffer that later batches may write into: only the buffer of a
 * body the collector took comes back for them. A failed export's body may still be read (by a
 * request being torn down, or a retrying client), so its bytes must stay what they were.
 */
const scope = { name: "rule-server", version: "1" };
const span = (name: string): FinishedSpan => ({
  ids: Buffer.alloc(32, 7),
  idsAt: 0,
  traceId: "",
  spanId: "",
  name,
  kind: "server",
  startMs: 1,
  endMs: 2,
  attributes: {},
});

test("a failed export's body is never written over; a delivered one's buffer serves a later batch", async () => {
  const settings = readTraceSettings(
    { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:1", OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "2" },
    [],
  )!;
  // Buffers other tests of this process gave back are taken first, so that only this test's come back.
  for (let index = 0; index < 3; index++) spanBatch(settings, scope);
  const bodies: Uint8Array[] = [];
  const answers = [503, 200, 200, 200];
  const dropped: number[] = [];
  const exporter = new SpanExporter(
    settings,
    scope,
    {
      dropped: (_reason, count) => void dropped.push(count),
      exported: () => {},
      failing: () => {},
      recovered: () => {},
    },
    async (_url, init) => {
      bodies.push(init.body as Uint8Array);
      return new Response(null, { status: answers[bodies.length - 1] });
    },
  );
  // Two spans fill a batch and send it; the next batch is made as one is sent.
  for (let batch = 0; batch < 4; batch++) {
    exporter.add(span(`batch ${batch}, span 0`));
    exporter.add(span(`batch ${batch}, span 1`));
    await exporter.flush();
  }
  expect(bodies).toHaveLength(4);
  expect(dropped).toEqual([2]);
  const names = (body: Uint8Array) => decodeProtobufTraceRequest(body).spans.map((read) => read.name);
  // The failed first body still holds its own spans after three more batches were written.
  expect(names(bodies[0]!)).toEqual(["batch 0, span 0", "batch 0, span 1"]);
  for (const later of bodies.slice(1)) expect(later.buffer).not.toBe(bodies[0]!.buffer);
  // The fourth batch was made once the second was delivered: it writes into the second's buffer.
  expect(bodies[3]!.buffer).toBe(bodies[1]!.buffer);
  expect(names(bodies[3]!)).toEqual(["batch 3, span 0", "batch 3, span 1"]);
});
