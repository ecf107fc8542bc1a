/** A span as it is exported: OTLP's members, times in milliseconds since the epoch. */
export interface FinishedSpan {
  /** The span's ids as bytes: trace id, span id and parent span id at `idsAt` plus TRACE_AT, SPAN_AT and PARENT_AT (span-ids.ts). */
  readonly ids: Uint8Array;
  readonly idsAt: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly traceState?: string;
  readonly name: string;
  readonly kind: "server" | "internal";
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes: SpanAttributes;
  /** OTLP's status: an error for a 5xx answer or a failed evaluation, unset otherwise. */
  readonly error?: string;
}

/** A span's attributes; a member left undefined is not exported (a fixed shape costs less to build). */
export type SpanAttributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** The OTLP SpanKind numbers. */
export const SPAN_KIND = { internal: 1, server: 2 } as const;
/** The OTLP StatusCode numbers. */
export const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;
