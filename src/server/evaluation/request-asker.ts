import type { RecordAsker } from "./evaluation-reply.ts";

/**
 * Who asked for an evaluation, for its decision record: the request id, the caller authentication
 * found, and the trace the log line names (the request's span with tracing on, else the trace of
 * its `traceparent`), as the request's log line has them.
 */
export function requestAsker(requestId: string, logFields: Readonly<Record<string, unknown>>): RecordAsker {
  const caller = logFields.caller as string | undefined;
  const traceId = logFields.traceId as string | undefined;
  const spanId = logFields.spanId as string | undefined;
  return {
    requestId,
    ...(caller === undefined ? {} : { caller }),
    ...(traceId === undefined ? {} : { trace: spanId === undefined ? { traceId } : { traceId, spanId } }),
  };
}
