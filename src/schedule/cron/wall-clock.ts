/** A wall-clock date and time in some time zone, months 1-12. */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A cached formatter that reads the wall-clock fields of an instant in `zone`; throws RangeError for an unknown zone. */
function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      calendar: "gregory",
      numberingSystem: "latn",
      hourCycle: "h23",
      era: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall-clock fields of an instant (milliseconds since the epoch) in `zone`, from the platform's `Intl` data. */
export function wallClockAt(instant: number, zone: string): WallClock {
  const fields: Record<string, string> = {};
  for (const part of formatterFor(zone).formatToParts(instant)) fields[part.type] = part.value;
  const year = Number(fields.year);
  return {
    // Years before 1 are shown as years of the era BC: 1 BC is year 0.
    year: fields.era === "BC" || fields.era === "B" ? 1 - year : year,
    month: Number(fields.month),
    day: Number(fields.day),
    hour: Number(fields.hour) % 24,
    minute: Number(fields.minute),
    second: Number(fields.second),
  };
}
