import { type FinishedSpan, SPAN_KIND, STATUS_CODE } from "./finished-span.ts";
import type { SpanScope } from "./otlp-json.ts";
import { ProtobufWriter } from "./protobuf-writer.ts";
import { PARENT_AT, SPAN_AT, TRACE_AT } from "./span-ids.ts";

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
  const start = writer.openMedium(2);
  writeSpan(writer, span);
  writer.closeMedium(start);
}

/** Where the open messages of a trace request started: each is closed once its spans are written. */
export interface OpenTraceRequest {
  readonly resourceSpans: number;
  readonly scopeSpans: number;
}

/**
 * Starts an ExportTraceServiceRequest in `writer`: one ResourceSpans with the resource, and its
 * ScopeSpans with the scope; spans follow (writeScopeSpan), then closeTraceRequest.
 */
export function openTraceRequest(
  writer: ProtobufWriter,
  resource: Readonly<Record<string, string>>,
  scope: SpanScope,
): OpenTraceRequest {
  const resourceSpans = writer.open(1);
  writer.message(1, (written) => {
    for (const [key, value] of Object.entries(resource)) {
      const kv = written.open(1);
      keyValue(written, key, value);
      written.close(kv);
    }
  });
  const scopeSpans = writer.open(2);
  writer.message(1, (written) => written.string(1, scope.name).string(2, scope.version));
  return { resourceSpans, scopeSpans };
}

export function closeTraceRequest(writer: ProtobufWriter, open: OpenTraceRequest): void {
  writer.close(open.scopeSpans).close(open.resourceSpans);
}

function writeSpan(span: ProtobufWriter, finished: FinishedSpan): void {
  const { ids, idsAt } = finished;
  span.bytes(1, ids, idsAt + TRACE_AT, 16).bytes(2, ids, idsAt + SPAN_AT, 8);
  if (finished.traceState !== undefined) span.string(3, finished.traceState);
  if (finished.parentSpanId !== undefined) span.bytes(4, ids, idsAt + PARENT_AT, 8);
  cachedString(span, 5, finished.name);
  span
    .varint(6, SPAN_KIND[finished.kind])
    .fixed64Nanoseconds(7, finished.startMs)
    .fixed64Nanoseconds(8, finished.endMs);
  const { attributes } = finished;
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) writeAttribute(span, key, value);
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

/**
 * Whole attributes (Span.attributes, field 9) as encoded bytes, by key then value: a server's
 * attributes take few values (methods, routes, statuses, rulesets, decisions), and copying one
 * attribute's bytes costs a fraction of encoding it. At most MOST_VALUES_PER_KEY values of a key
 * are kept; others are encoded every time.
 */
const ENCODED_ATTRIBUTES = new Map<string, EncodedValues>();
const MOST_VALUES_PER_KEY = 1024;

/** A key's encoded attributes by value, and the last one written (most spans repeat the one before: no hashing then). */
interface EncodedValues {
  last: string | number | boolean | undefined;
  lastBytes: Uint8Array | undefined;
  readonly byValue: Map<string | number | boolean, Uint8Array>;
}

function writeAttribute(writer: ProtobufWriter, key: string, value: string | number | boolean): void {
  let values = ENCODED_ATTRIBUTES.get(key);
  if (values === undefined)
    ENCODED_ATTRIBUTES.set(key, (values = { last: undefined, lastBytes: undefined, byValue: new Map() }));
  if (values.last === value) {
    writer.raw(values.lastBytes!);
    return;
  }
  let bytes = values.byValue.get(value);
  if (bytes === undefined) {
    const start = writer.size;
    const kv = writer.openSmall(9);
    keyValue(writer, key, value);
    writer.closeSmall(kv);
    if (values.byValue.size >= MOST_VALUES_PER_KEY) return;
    bytes = writer.copyOf(start);
    values.byValue.set(value, bytes);
  } else writer.raw(bytes);
  values.last = value;
  values.lastBytes = bytes;
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
