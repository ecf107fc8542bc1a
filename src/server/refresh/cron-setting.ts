import { nextFireTimes, parseCron, validateTimeZone } from "../../schedule/cron/index.ts";
import { type Clock, SYSTEM_CLOCK } from "./clock.ts";

/**
 * Whether a cron refresh setting can be served: an expression that parses and can fire, in a
 * time zone the platform knows, and that fires in that zone (a time that always falls in a DST
 * gap never does). Undefined when it is fine, otherwise the reason.
 */
export function cronSettingProblem(expression: string | undefined, timeZone: string): string | undefined {
  if (expression === undefined || expression.trim() === "")
    return "RULES_REFRESH=cron needs RULES_REFRESH_CRON (a five-field cron expression)";
  if (!validateTimeZone(timeZone))
    return `RULES_REFRESH_TZ: ${JSON.stringify(timeZone)} is not a time zone this platform knows`;
  const parsed = parseCron(expression);
  if (!parsed.ok) return `RULES_REFRESH_CRON: ${parsed.reason}`;
  if (nextFireTimes(parsed.schedule, timeZone, new Date(), 1).length === 0)
    return `RULES_REFRESH_CRON: ${JSON.stringify(expression)} never fires in ${timeZone}`;
  return undefined;
}

/** The milliseconds until a cron schedule's next fire time, for the refresh timer. */
export function cronDelay(expression: string, timeZone: string, clock: Clock = SYSTEM_CLOCK): () => number | undefined {
  const parsed = parseCron(expression);
  if (!parsed.ok) return () => undefined;
  return () => {
    const now = clock.now();
    const next = nextFireTimes(parsed.schedule, timeZone, now, 1)[0];
    return next === undefined ? undefined : next.getTime() - now.getTime();
  };
}
