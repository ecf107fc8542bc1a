import { daysInMonth, utcMilliseconds } from "./calendar.ts";

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 date-time (`2026-03-29T01:30:00+01:00`, `...Z`, optional fraction), or undefined when
 * the text is not one or names a date that does not exist. A leap second (:60) is read as :59.
 */
export function parseRfc3339(text: string): Date | undefined {
  const match = RFC3339.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offsetMinutes = 0;
  if (match[8] === undefined) {
    const offsetHours = Number(match[10]);
    const offsetMinutePart = Number(match[11]);
    if (offsetHours > 23 || offsetMinutePart > 59) return undefined;
    offsetMinutes = (match[9] === "-" ? -1 : 1) * (offsetHours * 60 + offsetMinutePart);
  }
  const fraction = match[7] === undefined ? 0 : Math.floor(Number(`0${match[7]}`) * 1000);
  return new Date(
    utcMilliseconds(year, month, day, hour, minute, Math.min(second, 59)) + fraction - offsetMinutes * 60_000,
  );
}
