/** The proleptic Gregorian calendar's month lengths (months 1-12). */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/** The most days a month ever has (29 for February, counting leap years). */
export function maxDaysInMonth(month: number): number {
  return month === 2 ? 29 : DAYS_IN_MONTH[month - 1]!;
}
