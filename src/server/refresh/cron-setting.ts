/**
 * Whether a cron refresh setting can be served: an expression that parses and can fire, in a
 * time zone the platform knows. Undefined when it is fine, otherwise the reason.
 */
export function cronSettingProblem(expression: string | undefined, timeZone: string): string | undefined {
  if (expression === undefined || expression.trim() === "") return "RULES_REFRESH=cron needs RULES_REFRESH_CRON (a five-field cron expression)";
  return "RULES_REFRESH=cron is not supported by this version yet; use interval or manual";
}

/** The milliseconds until a cron schedule's next fire time, for the refresh timer. */
export function cronDelay(_expression: string, _timeZone: string): () => number | undefined {
  return () => undefined;
}
