import type { SpanAttributes } from "../../tracing/finished-span.ts";

/**
 * A request span's attributes (DECISIONS.md, "Tracing"): the HTTP ones of OpenTelemetry's semantic
 * conventions, and what the request's log line says of its ruleset, decision and caller.
 */
export function requestSpanAttributes(
  method: string,
  route: string | undefined,
  status: number,
  logFields: Readonly<Record<string, unknown>>,
): SpanAttributes {
  // One object literal, every key in place (a missing one undefined, which is not exported): built
  // on every sampled request, it keeps one shape rather than growing one member at a time.
  return {
    "http.request.method": method,
    "http.route": route,
    "http.response.status_code": status,
    "rule_server.ruleset": stringOrUndefined(logFields.ruleset),
    "rule_server.ruleset.version": stringOrUndefined(logFields.version),
    "rule_server.decision": stringOrUndefined(logFields.decision),
    "rule_server.caller": stringOrUndefined(logFields.caller),
  };
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
