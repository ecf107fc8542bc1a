/** Cron schedules as the contract defines them ("Cron syntax"). */
export type { CronSchedule, ParseCronResult } from "./cron-schedule.ts";
export { parseCron } from "./parse-cron.ts";
export { nextFireTimes, SEARCH_YEARS } from "./next-fire-times.ts";
export { validateTimeZone } from "./time-zone.ts";
export { formatRfc3339 } from "./format-rfc3339.ts";
export { parseRfc3339 } from "./parse-rfc3339.ts";
