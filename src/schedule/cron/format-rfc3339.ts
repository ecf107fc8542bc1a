import { offsetAt } from "./time-zone.ts";

/**
 * An instant as RFC 3339 in the zone's wall-clock time with its numeric offset, for example
 * `2026-03-29T03:00:00+02:00`. A zero offset is written `+00:00`, never `Z`, so every line has the
 * same shape. Milliseconds are dropped (fire times have none). An offset with seconds (local mean
 * time, before about 1900) is rounded to the minute and the time written in that offset, so the
 * text still names the same instant.
 */
export function formatRfc3339(date: Date, zone: string): string {
  const instant = Math.floor(date.getTime() / 1000) * 1000;
  const offsetMinutes = Math.round(offsetAt(instant, zone) / 60_000);
  const shifted = new Date(instant + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const absolute = Math.abs(offsetMinutes);
  return (
    `${pad(shifted.getUTCFullYear(), 4)}-${pad(shifted.getUTCMonth() + 1)}-${pad(shifted.getUTCDate())}` +
    `T${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${pad(shifted.getUTCSeconds())}` +
    `${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`
  );
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}
