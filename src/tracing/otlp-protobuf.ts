import { type FinishedSpan, SPAN_KIND, STATUS_CODE } from "./finished-span.ts";
import type { SpanScope } from "./otlp-json.ts";
import { ProtobufWriter } from "./protobuf-writer.ts";

/*
 * An ExportTraceServiceRequest in protobuf (opentelemetry-proto, trace/v1 and common/v1):
 * request.resource_spans = 1; ResourceSpans.resource = 1, .scope_spans = 2; Resource.attributes = 1;
 * ScopeSpans.scope = 1, .spans = 2; InstrumentationScope.name = 1, .version = 2; Span.trace_id = 1,
 * span_id = 2, trace_state = 3, parent_span_id = 4, name = 5, kind = 6, start_time_unix_nano = 7
 * (fixed64), end_time_unix_nano = 8, attributes = 9, status = 15; Status.message = 2, code = 3;
 * KeyValue.key = 1, value = 2; AnyValue.string_value = 1, bool_value = 2, int_value = 3, double_value = 4.
 */

/** A span as a ScopeSpans.spans field (2), appended to `writer`: a batch is made of these. */
export function writeScopeSpan(writer: ProtobufWriter, span: FinishedSpan): void {
  const start = writer.open(2);
  writeSpan(writer, span);
  writer.close(start);
}

/** The request around spans already encoded by writeScopeSpan. */
export function otlpProtobufRequest(
  resource: Readonly<Record<string, string>>,
  scope: SpanScope,
  encodedSpans: Uint8Array,
): Uint8Array {
  return new ProtobufWriter(encodedSpans.length + 512)
    .message(1, (resourceSpans) => {
      resourceSpans.message(1, (written) => {
        for (const [key, value] of Object.entries(resource)) {
          const kv = written.open(1);
          keyValue(written, key, value);
          written.close(kv);
        }
      });
      resourceSpans.message(2, (scopeSpans) => {
        scopeSpans.message(1, (written) => written.string(1, scope.name).string(2, scope.version));
        scopeSpans.raw(encodedSpans);
      });
    })
    .finish();
}

function writeSpan(span: ProtobufWriter, finished: FinishedSpan): void {
  span.hexBytes(1, finished.traceId).hexBytes(2, finished.spanId);
  if (finished.traceState !== undefined) span.string(3, finished.traceState);
  if (finished.parentSpanId !== undefined) span.hexBytes(4, finished.parentSpanId);
  cachedString(span, 5, finished.name);
  span
    .varint(6, SPAN_KIND[finished.kind])
    .fixed64Nanoseconds(7, finished.startMs)
    .fixed64Nanoseconds(8, finished.endMs);
  const { attributes } = finished;
  for (const key in attributes) {
    const value = attributes[key];
    if (value === undefined) continue;
    const kv = span.openSmall(9);
    keyValue(span, key, value);
    span.closeSmall(kv);
  }
  const status = span.openSmall(15);
  if (finished.error !== undefined) span.string(2, finished.error).varint(3, STATUS_CODE.error);
  span.closeSmall(status);
}

/**
 * Attribute keys and span names as encoded fields, kept per field number: a server has a few dozen
 * of each, and copying their bytes costs less than encoding them for every span. Bounded, for
 * names that vary.
 */
const ENCODED_FIELDS = new Map<number, Map<string, Uint8Array>>();
const MOST_ENCODED_FIELDS = 512;

function cachedString(writer: ProtobufWriter, field: number, text: string): void {
  let encoded = ENCODED_FIELDS.get(field);
  if (encoded === undefined) ENCODED_FIELDS.set(field, (encoded = new Map()));
  let bytes = encoded.get(text);
  if (bytes === undefined) {
    bytes = new ProtobufWriter(text.length * 3 + 8).string(field, text).finish();
    if (encoded.size < MOST_ENCODED_FIELDS) encoded.set(text, bytes);
  }
  writer.raw(bytes);
}

function keyValue(kv: ProtobufWriter, key: string, value: string | number | boolean): void {
  cachedString(kv, 1, key);
  const any = kv.openSmall(2);
  if (typeof value === "string") kv.oneofString(1, value);
  else if (typeof value === "boolean") kv.oneofBool(2, value);
  else if (Number.isInteger(value)) kv.oneofInt64(3, value);
  else kv.double(4, value);
  kv.closeSmall(any);
}
