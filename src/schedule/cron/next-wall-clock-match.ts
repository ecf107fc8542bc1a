import { daysInMonth } from "./calendar.ts";
import type { CronSchedule } from "./cron-schedule.ts";
import { dayMatches } from "./day-matches.ts";

/** A wall-clock minute, months 1-12. */
export interface WallClockMinute {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
}

/**
 * The first wall-clock minute strictly after `from` that the schedule matches, or undefined if
 * there is none up to the end of `lastYear`. Pure calendar arithmetic, no time zone: it jumps to
 * the next allowed month, skips days that do not match and jumps to the next allowed hour and
 * minute, so even a schedule that matches once in years is found in a few thousand steps.
 */
export function nextWallClockMatch(
  schedule: CronSchedule,
  from: WallClockMinute,
  lastYear: number,
): WallClockMinute | undefined {
  let { year, month, day, hour } = from;
  let minute = from.minute + 1;
  while (year <= lastYear) {
    const allowedMonth = firstAtLeast(schedule.months, month);
    if (allowedMonth === undefined) {
      [year, month, day, hour, minute] = [year + 1, 1, 1, 0, 0];
      continue;
    }
    if (allowedMonth !== month) [month, day, hour, minute] = [allowedMonth, 1, 0, 0];
    if (day > daysInMonth(year, month)) {
      [month, day, hour, minute] = [month + 1, 1, 0, 0];
      if (month > 12) [year, month] = [year + 1, 1];
      continue;
    }
    if (!dayMatches(schedule, year, month, day)) {
      [day, hour, minute] = [day + 1, 0, 0];
      continue;
    }
    const allowedHour = firstAtLeast(schedule.hours, hour);
    if (allowedHour === undefined) {
      [day, hour, minute] = [day + 1, 0, 0];
      continue;
    }
    if (allowedHour !== hour) [hour, minute] = [allowedHour, 0];
    const allowedMinute = firstAtLeast(schedule.minutes, minute);
    if (allowedMinute === undefined) {
      [hour, minute] = [hour + 1, 0];
      continue;
    }
    return { year, month, day, hour, minute: allowedMinute };
  }
  return undefined;
}

/** The smallest value of an ascending list that is at least `value`. */
function firstAtLeast(sorted: readonly number[], value: number): number | undefined {
  return sorted.find((candidate) => candidate >= value);
}
