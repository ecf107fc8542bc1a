/** A span as it is exported: OTLP's members, times in milliseconds since the epoch. */
export interface FinishedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly traceState?: string;
  readonly name: string;
  readonly kind: "server" | "internal";
  readonly startMs: number;
  readonly endMs: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** OTLP's status: an error for a 5xx answer or a failed evaluation, unset otherwise. */
  readonly error?: string;
}

/** The OTLP SpanKind numbers. */
export const SPAN_KIND = { internal: 1, server: 2 } as const;
/** The OTLP StatusCode numbers. */
export const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;
