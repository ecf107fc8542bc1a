/**
 * The trace id of a W3C Trace Context `traceparent` header (`00-<32 hex>-<16 hex>-<2 hex>`), for
 * the log line. Lower-case hex only, as the recommendation requires; an all-zero trace or parent
 * id is invalid. Later versions may append members after the flags, so only version 00 must end there.
 */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-.*)?$/;
const ZERO_TRACE_ID = "0".repeat(32);
const ZERO_PARENT_ID = "0".repeat(16);

export function traceIdOf(header: string): string | undefined {
  const match = TRACEPARENT.exec(header.trim());
  if (match === null) return undefined;
  const [, version, traceId, parentId, rest] = match;
  if (version === "ff" || (version === "00" && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE_ID || parentId === ZERO_PARENT_ID) return undefined;
  return traceId;
}
