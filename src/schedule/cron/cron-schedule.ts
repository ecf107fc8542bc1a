/**
 * A parsed cron schedule: the allowed values of each of the five fields, sorted ascending, and
 * whether each day field is restricted. A day field is restricted unless its text begins with `*`
 * (so `*` and `*\/2` are unrestricted, `1-31` is restricted). Day of week uses 0-6, Sunday 0
 * (a written 7 is stored as 0).
 */
export interface CronSchedule {
  /** The expression as written, without leading or trailing spaces and tabs. */
  readonly text: string;
  readonly minutes: readonly number[];
  readonly hours: readonly number[];
  readonly daysOfMonth: readonly number[];
  readonly months: readonly number[];
  readonly daysOfWeek: readonly number[];
  readonly dayOfMonthRestricted: boolean;
  readonly dayOfWeekRestricted: boolean;
}

export type ParseCronResult = { ok: true; schedule: CronSchedule } | { ok: false; reason: string };
