import { dayOfWeek } from "./calendar.ts";
import type { CronSchedule } from "./cron-schedule.ts";

/**
 * Whether a calendar day matches the schedule's day fields: when both are restricted a day matches
 * when either matches; otherwise both must (an unrestricted field allows every day anyway, except
 * that `*\/2` allows only some days yet still counts as unrestricted).
 */
export function dayMatches(schedule: CronSchedule, year: number, month: number, day: number): boolean {
  const byDayOfMonth = schedule.daysOfMonth.includes(day);
  const byDayOfWeek = schedule.daysOfWeek.includes(dayOfWeek(year, month, day));
  return schedule.dayOfMonthRestricted && schedule.dayOfWeekRestricted
    ? byDayOfMonth || byDayOfWeek
    : byDayOfMonth && byDayOfWeek;
}
