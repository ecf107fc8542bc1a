/** Proleptic Gregorian calendar arithmetic on plain numbers (months 1-12, weekdays 0-6 from Sunday). */

export { daysInMonth, isLeapYear, maxDaysInMonth } from "../../engine/date/gregorian-calendar.ts";

/** Milliseconds since the epoch of a date and time read as UTC; unlike `Date.UTC`, years 0-99 are not moved to 1900-1999. */
export function utcMilliseconds(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

export function dayOfWeek(year: number, month: number, day: number): number {
  return new Date(utcMilliseconds(year, month, day)).getUTCDay();
}
