import type { FinishedSpan } from "./finished-span.ts";
import { jsonSpan, otlpJsonRequest, type SpanScope } from "./otlp-json.ts";
import { otlpProtobufRequest, writeScopeSpan } from "./otlp-protobuf.ts";
import { ProtobufWriter } from "./protobuf-writer.ts";

/**
 * Spans waiting to be exported, encoded soon after they end: a batch holds their bytes (or JSON
 * texts) and at most a few dozen spans, so little a request made outlives it in the heap until the
 * export (a whole batch held as objects cost the collector more than encoding them did).
 */
export interface SpanBatch {
  readonly count: number;
  add(span: FinishedSpan): void;
  /** The export request's body. */
  body(resource: Readonly<Record<string, string>>, scope: SpanScope): Uint8Array;
}

export function spanBatch(protocol: "http/protobuf" | "http/json"): SpanBatch {
  return protocol === "http/json" ? new JsonBatch() : new ProtobufBatch();
}

/**
 * Spans are encoded a few at a time: one at the end of each request ran the encoder cold (several
 * times its cost in a loop); a few dozen held until then are still young for the collector.
 */
const ENCODED_TOGETHER = 32;

class ProtobufBatch implements SpanBatch {
  count = 0;
  private readonly writer = new ProtobufWriter(16 * 1024);
  private readonly pending: FinishedSpan[] = [];

  add(span: FinishedSpan): void {
    this.pending.push(span);
    this.count++;
    if (this.pending.length >= ENCODED_TOGETHER) this.encodePending();
  }

  body(resource: Readonly<Record<string, string>>, scope: SpanScope): Uint8Array {
    this.encodePending();
    return otlpProtobufRequest(resource, scope, this.writer.finish());
  }

  private encodePending(): void {
    for (const span of this.pending) writeScopeSpan(this.writer, span);
    this.pending.length = 0;
  }
}

class JsonBatch implements SpanBatch {
  private readonly texts: string[] = [];

  get count(): number {
    return this.texts.length;
  }

  add(span: FinishedSpan): void {
    this.texts.push(JSON.stringify(jsonSpan(span)));
  }

  body(resource: Readonly<Record<string, string>>, scope: SpanScope): Uint8Array {
    return otlpJsonRequest(resource, scope, this.texts);
  }
}
