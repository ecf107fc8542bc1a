import type { FinishedSpan } from "./finished-span.ts";
import { jsonSpan, otlpJsonRequest, type SpanScope } from "./otlp-json.ts";
import { closeTraceRequest, type OpenTraceRequest, openTraceRequest, writeScopeSpan } from "./otlp-protobuf.ts";
import { ProtobufWriter } from "./protobuf-writer.ts";
import type { TraceSettings } from "./trace-settings.ts";

/**
 * Spans waiting to be exported, encoded soon after they end: a batch holds their bytes (or JSON
 * texts) and at most a few dozen spans, so little a request made outlives it in the heap until the
 * export (a whole batch held as objects cost the collector more than encoding them did).
 */
export interface SpanBatch {
  readonly count: number;
  add(span: FinishedSpan): void;
  /** The export request's body; the batch is done with. */
  body(): Uint8Array;
  /** The body was delivered: its memory may serve a later batch. */
  delivered(): void;
}

export function spanBatch(settings: TraceSettings, scope: SpanScope): SpanBatch {
  return settings.protocol === "http/json"
    ? new JsonBatch(settings.resource, scope)
    : new ProtobufBatch(settings.resource, scope, settings.maxExportBatchSize);
}

/**
 * Spans are encoded a few at a time: one at the end of each request ran the encoder cold (several
 * times its cost in a loop); a few dozen held until then are still young for the collector.
 */
const ENCODED_TOGETHER = 32;
/** About what an encoded server span takes, to size a batch's buffer once rather than grow it span by span. */
const BYTES_PER_SPAN = 256;

/**
 * Buffers of delivered bodies, for the next batches: allocating (and zeroing) a full batch's
 * buffer cost more per span than encoding it. Only a delivered body's buffer comes back: one whose
 * export failed may still be read by a request being torn down.
 */
const spareBuffers: Uint8Array[] = [];
const MOST_SPARE_BUFFERS = 2;

/**
 * The export request is written as the spans come: its resource and scope first, each span into
 * the same buffer, sized for a full batch; the body is that buffer, with no copy.
 */
class ProtobufBatch implements SpanBatch {
  count = 0;
  private readonly writer: ProtobufWriter;
  private readonly request: OpenTraceRequest;
  private readonly pending: FinishedSpan[] = [];

  constructor(resource: Readonly<Record<string, string>>, scope: SpanScope, expectedSpans: number) {
    this.writer = new ProtobufWriter(Math.min(expectedSpans, 4096) * BYTES_PER_SPAN + 1024, spareBuffers.pop());
    this.request = openTraceRequest(this.writer, resource, scope);
  }

  delivered(): void {
    if (spareBuffers.length < MOST_SPARE_BUFFERS) spareBuffers.push(this.writer.written);
  }

  add(span: FinishedSpan): void {
    this.pending.push(span);
    this.count++;
    if (this.pending.length >= ENCODED_TOGETHER) this.encodePending();
  }

  body(): Uint8Array {
    this.encodePending();
    closeTraceRequest(this.writer, this.request);
    return this.writer.finish();
  }

  private encodePending(): void {
    for (const span of this.pending) writeScopeSpan(this.writer, span);
    this.pending.length = 0;
  }
}

class JsonBatch implements SpanBatch {
  private readonly texts: string[] = [];

  constructor(
    private readonly resource: Readonly<Record<string, string>>,
    private readonly scope: SpanScope,
  ) {}

  get count(): number {
    return this.texts.length;
  }

  add(span: FinishedSpan): void {
    this.texts.push(JSON.stringify(jsonSpan(span)));
  }

  body(): Uint8Array {
    return otlpJsonRequest(this.resource, this.scope, this.texts);
  }

  delivered(): void {}
}
