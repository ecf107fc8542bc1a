/**
 * A request span's attributes (DECISIONS.md, "Tracing"): the HTTP ones of OpenTelemetry's semantic
 * conventions, and what the request's log line says of its ruleset, decision and caller.
 */
export function requestSpanAttributes(
  method: string,
  route: string | undefined,
  status: number,
  logFields: Readonly<Record<string, unknown>>,
): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {
    "http.request.method": method,
    "http.response.status_code": status,
  };
  if (route !== undefined) attributes["http.route"] = route;
  for (const [field, attribute] of FROM_LOG_LINE) {
    const value = logFields[field];
    if (typeof value === "string") attributes[attribute] = value;
  }
  return attributes;
}

/** Log line members and the span attributes they become. */
const FROM_LOG_LINE = [
  ["ruleset", "rule_server.ruleset"],
  ["version", "rule_server.ruleset.version"],
  ["decision", "rule_server.decision"],
  ["caller", "rule_server.caller"],
] as const;
