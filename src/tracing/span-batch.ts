import type { FinishedSpan } from "./finished-span.ts";
import { jsonSpan, otlpJsonRequest, type SpanScope } from "./otlp-json.ts";
import { otlpProtobufRequest, writeScopeSpan } from "./otlp-protobuf.ts";
import { ProtobufWriter } from "./protobuf-writer.ts";

/**
 * Spans waiting to be exported, encoded as each ends: a batch holds their bytes (or JSON texts),
 * not the spans, so nothing a request made outlives it in the heap until the export (spans held
 * as objects for a batch cost the collector more than encoding them did).
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

class ProtobufBatch implements SpanBatch {
  count = 0;
  private readonly writer = new ProtobufWriter(16 * 1024);

  add(span: FinishedSpan): void {
    writeScopeSpan(this.writer, span);
    this.count++;
  }

  body(resource: Readonly<Record<string, string>>, scope: SpanScope): Uint8Array {
    return otlpProtobufRequest(resource, scope, this.writer.finish());
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
