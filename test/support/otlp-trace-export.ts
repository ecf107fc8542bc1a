/**
 * One OTLP trace export as the test receiver keeps it, whichever encoding it came in: OTLP's
 * members with ids as lower-case hex, times as nanoseconds, enums as their numbers.
 */
export interface OtlpTraceExport {
  /** The resource's attributes (of every ResourceSpans in the request: an exporter sends one). */
  readonly resource: Record<string, OtlpAttributeValue>;
  /** The spans of every scope, in the order they came. */
  readonly spans: OtlpSpan[];
}

export interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Absent for a root span (OTLP sends it empty). */
  readonly parentSpanId?: string;
  /** The W3C `tracestate` the span carries, when it is not empty. */
  readonly traceState?: string;
  readonly name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer (0 unspecified). */
  readonly kind: number;
  readonly startTimeUnixNano: bigint;
  readonly endTimeUnixNano: bigint;
  readonly attributes: Record<string, OtlpAttributeValue>;
  /** OTLP's StatusCode: 0 unset, 1 ok, 2 error; `message` only when there is one. */
  readonly status: { readonly code: number; readonly message?: string };
}

/**
 * An attribute's AnyValue: an int64 as a number while it is a safe integer (a bigint beyond),
 * bytes as bytes, a key-value list as a record, an empty AnyValue as null.
 */
export type OtlpAttributeValue =
  | string
  | boolean
  | number
  | bigint
  | Uint8Array
  | null
  | OtlpAttributeValue[]
  | { [key: string]: OtlpAttributeValue };

/** OTLP's SpanKind numbers. */
export const OTLP_SPAN_KIND = { unspecified: 0, internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;
/** OTLP's StatusCode numbers. */
export const OTLP_STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;

/** A request body the receiver could not decode as an ExportTraceServiceRequest. */
export class OtlpDecodeError extends Error {
  readonly code = "OTLP_DECODE";
  override readonly name = "OtlpDecodeError";
}

/** An int64 in the plain shape: a number while that is exact. */
export function int64Value(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/** Checks ids have OTLP's lengths (16 bytes for a trace, 8 for a span), so a wrong encoding shows. */
export function checkSpanIds(spans: readonly OtlpSpan[]): void {
  for (const span of spans) {
    const ids: [string, string | undefined, number][] = [
      ["traceId", span.traceId, 32],
      ["spanId", span.spanId, 16],
      ["parentSpanId", span.parentSpanId, 16],
    ];
    for (const [name, id, length] of ids) {
      if (id !== undefined && id.length !== length) {
        throw new OtlpDecodeError(
          `span ${JSON.stringify(span.name)} has a ${name} of ${id.length / 2} bytes, not ${length / 2}`,
        );
      }
    }
  }
}
