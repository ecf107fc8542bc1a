import { daysInMonth } from "../date/gregorian-calendar.ts";

/**
 * The `format`s the validator checks (schema-validator.ts): date, date-time and time as RFC 3339
 * has them, email as people type addresses, uuid, and absolute uri. Any other format is an
 * annotation. Also the `pattern`s of a schema: ECMAScript expressions with the `u` flag.
 */
export interface Format {
  readonly test: (text: string) => boolean;
  /** What the value is not, after "is not". */
  readonly expected: string;
}

export function formatNamed(name: string): Format | undefined {
  switch (name) {
    case "date":
      return { test: isDate, expected: "a valid date (YYYY-MM-DD)" };
    case "date-time":
      return { test: isDateTime, expected: "a valid date-time (RFC 3339, e.g. 2026-03-02T09:30:00Z)" };
    case "time":
      return { test: isTime, expected: "a valid time (RFC 3339, e.g. 09:30:00Z)" };
    case "email":
      return { test: isEmail, expected: "a valid email address" };
    case "uuid":
      return { test: (text) => UUID.test(text), expected: "a valid UUID" };
    case "uri":
      return { test: isAbsoluteUri, expected: "an absolute URI" };
    default:
      return undefined;
  }
}

const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))$/;
const EMAIL_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const HOST_NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]]|%[0-9A-Fa-f]{2})*$/;

/** RFC 3339 full-date: a real day of the proleptic Gregorian calendar. */
function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** RFC 3339 full-time: with seconds and an offset; a leap second only at 23:59:60 UTC. */
function isTime(text: string): boolean {
  const match = TIME.exec(text);
  if (match === null) return false;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  const second = Number(match[3]);
  if (hour > 23 || minute > 59 || second > 60) return false;
  let offset = 0;
  if (match[4] !== undefined) {
    const offsetHours = Number(match[5]);
    const offsetMinutes = Number(match[6]);
    if (offsetHours > 23 || offsetMinutes > 59) return false;
    offset = (offsetHours * 60 + offsetMinutes) * (match[4] === "-" ? -1 : 1);
  }
  return second < 60 || (((hour * 60 + minute - offset) % 1440) + 1440) % 1440 === 23 * 60 + 59;
}

/** RFC 3339 date-time (`T` and `Z` in either case, as RFC 3339 allows). */
function isDateTime(text: string): boolean {
  return (text[10] === "T" || text[10] === "t") && isDate(text.slice(0, 10)) && isTime(text.slice(11));
}

/** An address as people type them: dot-atom local part, `@`, a host name of at least two labels. */
function isEmail(text: string): boolean {
  const at = text.lastIndexOf("@");
  if (at < 1 || text.length > 254 || at > 64) return false;
  return EMAIL_LOCAL.test(text.slice(0, at)) && HOST_NAME.test(text.slice(at + 1));
}

/** RFC 3986 URI with a scheme, of the characters a URI may hold, at most one fragment. */
function isAbsoluteUri(text: string): boolean {
  return ABSOLUTE_URI.test(text) && text.indexOf("#") === text.lastIndexOf("#");
}

export function compilePattern(source: unknown): RegExp | undefined {
  if (typeof source !== "string") return undefined;
  try {
    return new RegExp(source, "u");
  } catch {
    return undefined;
  }
}
