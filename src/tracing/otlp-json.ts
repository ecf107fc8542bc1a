import { nanoseconds } from "./span-time.ts";
import { type FinishedSpan, SPAN_KIND, STATUS_CODE } from "./finished-span.ts";

/** The instrumentation scope the spans are reported under. */
export interface SpanScope {
  readonly name: string;
  readonly version: string;
}

/**
 * An ExportTraceServiceRequest in OTLP/JSON around spans already written as JSON text (each
 * `JSON.stringify(jsonSpan(span))`): ids as hex strings (not base64, as the JSON mapping of OTLP
 * says), times as strings of nanoseconds, enums as numbers.
 */
export function otlpJsonRequest(
  resource: Readonly<Record<string, string>>,
  scope: SpanScope,
  spanTexts: readonly string[],
): Uint8Array {
  const head = JSON.stringify({
    resource: { attributes: Object.entries(resource).map(([key, value]) => attribute(key, value)) },
  }).slice(0, -1);
  const scopeText = JSON.stringify({ name: scope.name, version: scope.version });
  return new TextEncoder().encode(
    `{"resourceSpans":[${head},"scopeSpans":[{"scope":${scopeText},"spans":[${spanTexts.join(",")}]}]}]}`,
  );
}

/** A span as OTLP/JSON's Span object. */
export function jsonSpan(span: FinishedSpan): object {
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    ...(span.parentSpanId === undefined ? {} : { parentSpanId: span.parentSpanId }),
    ...(span.traceState === undefined ? {} : { traceState: span.traceState }),
    name: span.name,
    kind: SPAN_KIND[span.kind],
    startTimeUnixNano: nanoseconds(span.startMs).toString(),
    endTimeUnixNano: nanoseconds(span.endMs).toString(),
    attributes: Object.entries(span.attributes).flatMap(([key, value]) =>
      value === undefined ? [] : [attribute(key, value)],
    ),
    status: span.error === undefined ? { code: STATUS_CODE.unset } : { code: STATUS_CODE.error, message: span.error },
  };
}

function attribute(key: string, value: string | number | boolean) {
  return {
    key,
    value:
      typeof value === "string"
        ? { stringValue: value }
        : typeof value === "boolean"
          ? { boolValue: value }
          : Number.isInteger(value)
            ? { intValue: String(value) }
            : { doubleValue: value },
  };
}
