/** What an incoming `traceparent` (W3C Trace Context) says: the trace, the caller's span, and whether the caller sampled it. */
export interface IncomingTrace {
  readonly traceId: string;
  readonly parentSpanId: string;
  readonly sampled: boolean;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE_ID = "0".repeat(32);
const ZERO_PARENT_ID = "0".repeat(16);

/**
 * A `traceparent` header read as the recommendation says: lower-case hex only, an all-zero trace
 * or parent id is invalid, version ff is invalid, and version 00 ends after the flags (later
 * versions may add members). Undefined for anything else: the request starts a trace of its own.
 */
export function incomingTrace(header: string | null): IncomingTrace | undefined {
  if (header === null) return undefined;
  const match = TRACEPARENT.exec(header.trim());
  if (match === null) return undefined;
  const [, version, traceId, parentSpanId, flags, rest] = match;
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE_ID || parentSpanId === ZERO_PARENT_ID) return undefined;
  return { traceId: traceId!, parentSpanId: parentSpanId!, sampled: (Number.parseInt(flags!, 16) & 1) === 1 };
}
