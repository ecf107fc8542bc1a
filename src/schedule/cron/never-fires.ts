import { maxDaysInMonth } from "./calendar.ts";

/**
 * Why a schedule can never fire, or undefined when it can. Only the calendar can rule a schedule
 * out: when day of month is restricted and day of week is not, both must match, so some allowed
 * month must have some allowed day (29 February counts; every date falls on every weekday over the
 * years). An unrestricted day of month always allows the 1st; when both are restricted either may
 * match and every month has every weekday.
 */
export function neverFiresReason(fields: {
  daysOfMonth: readonly number[];
  months: readonly number[];
  dayOfMonthRestricted: boolean;
  dayOfWeekRestricted: boolean;
  dayOfMonthText: string;
  monthText: string;
}): string | undefined {
  if (!fields.dayOfMonthRestricted || fields.dayOfWeekRestricted) return undefined;
  const occurs = fields.months.some((month) => fields.daysOfMonth.some((day) => day <= maxDaysInMonth(month)));
  if (occurs) return undefined;
  return `the schedule can never fire because day-of-month ${fields.dayOfMonthText} never occurs in month ${fields.monthText}`;
}
