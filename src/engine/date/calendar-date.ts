import { fail } from "../errors.ts";
import { daysInMonth } from "./gregorian-calendar.ts";

/**
 * Dates of `daysBetween` and `yearsBetween` (specification 4.3): an RFC 3339 full-date
 * (`2026-10-03`) or date-time with seconds and an offset, ASCII digits, upper-case `T` and `Z`,
 * nothing around it. A date-time is moved to UTC before its calendar date is taken.
 */
export interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** Days since 1970-01-01. */
  readonly dayNumber: number;
}

const SECONDS_PER_DAY = 86400;

/** Dates read recently: an evaluation reads the same few (`ctx.now`, a field, a constant) many times. */
const recentDates = new Map<string, CalendarDate>();
const RECENT_DATES_LIMIT = 256;

export function parseCalendarDate(value: unknown): CalendarDate {
  if (typeof value !== "string") fail(`a date must be a string, got ${describe(value)}`);
  let date = recentDates.get(value);
  if (date === undefined) {
    date = readCalendarDate(value);
    if (recentDates.size >= RECENT_DATES_LIMIT) recentDates.clear();
    recentDates.set(value, date);
  }
  return date;
}

function readCalendarDate(text: string): CalendarDate {
  const malformed = (): never => fail(`an RFC 3339 date or date-time is expected, got ${JSON.stringify(text)}`);
  const invalid = (): never => fail(`${JSON.stringify(text)} is not a valid date`);
  if (text.length < 10 || text[4] !== "-" || text[7] !== "-") malformed();
  const year = digitsAt(text, 0, 4) ?? malformed();
  const month = digitsAt(text, 5, 2) ?? malformed();
  const day = digitsAt(text, 8, 2) ?? malformed();
  let hour = 0;
  let minute = 0;
  let second = 0;
  let offsetSeconds = 0;
  if (text.length > 10) {
    const time = text.slice(10);
    if (time.length < 10 || time[0] !== "T" || time[3] !== ":" || time[6] !== ":") malformed();
    hour = digitsAt(time, 1, 2) ?? malformed();
    minute = digitsAt(time, 4, 2) ?? malformed();
    second = digitsAt(time, 7, 2) ?? malformed();
    let zone = time.slice(9);
    if (zone[0] === ".") {
      let end = 1;
      while (end < zone.length && isAsciiDigit(zone.charCodeAt(end))) end++;
      if (end === 1) malformed();
      zone = zone.slice(end);
    }
    if (zone !== "Z") {
      if (zone.length !== 6 || (zone[0] !== "+" && zone[0] !== "-") || zone[3] !== ":") malformed();
      const offsetHours = digitsAt(zone, 1, 2) ?? malformed();
      const offsetMinutes = digitsAt(zone, 4, 2) ?? malformed();
      if (offsetHours > 23 || offsetMinutes > 59) invalid();
      offsetSeconds = (offsetHours * 3600 + offsetMinutes * 60) * (zone[0] === "-" ? -1 : 1);
    }
  }
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) invalid();
  if (hour > 23 || minute > 59 || second > 59) invalid();
  const utcSeconds =
    daysFromCivil(year, month, day) * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second - offsetSeconds;
  const dayNumber = Math.floor(utcSeconds / SECONDS_PER_DAY);
  const utc = civilFromDays(dayNumber);
  if (utc.year < 1 || utc.year > 9999) invalid();
  return Object.freeze({ ...utc, dayNumber });
}

/** Completed calendar years from `from` to `to`, as ages are counted; negative when `to` is earlier. */
export function wholeYearsBetween(from: CalendarDate, to: CalendarDate): number {
  if (to.dayNumber < from.dayNumber) return -wholeYearsBetween(to, from);
  let years = to.year - from.year;
  if (to.month < from.month || (to.month === from.month && to.day < from.day)) years--;
  return years;
}

function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function digitsAt(text: string, at: number, count: number): number | undefined {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const code = text.charCodeAt(i);
    if (!isAsciiDigit(code)) return undefined;
    n = n * 10 + (code - 48);
  }
  return n;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's civil algorithm). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "a list" : typeof value;
}
