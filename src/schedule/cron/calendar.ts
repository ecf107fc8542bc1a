/** Proleptic Gregorian calendar arithmetic on plain numbers (months 1-12, weekdays 0-6 from Sunday). */

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/** The most days a month ever has (29 for February, counting leap years). */
export function maxDaysInMonth(month: number): number {
  return month === 2 ? 29 : DAYS_IN_MONTH[month - 1]!;
}

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
