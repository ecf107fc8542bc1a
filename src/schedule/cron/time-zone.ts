import { utcMilliseconds } from "./calendar.ts";
import { wallClockAt, type WallClock } from "./wall-clock.ts";

/** Whether the platform's `Intl` data knows the zone (an IANA name such as Europe/Berlin, or UTC). */
export function validateTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: zone });
    return true;
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

/** The zone's offset from UTC at an instant, in milliseconds (whole seconds; positive east of Greenwich). */
export function offsetAt(instant: number, zone: string): number {
  const wall = wallClockAt(instant, zone);
  const wholeSecond = Math.floor(instant / 1000) * 1000;
  return utcMilliseconds(wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second) - wholeSecond;
}

const DAY = 24 * 60 * 60 * 1000;

/**
 * The instants at which the zone's clocks show a wall-clock time (its seconds taken as 0), earliest
 * first: none in a spring-forward gap, two in a fall-back overlap, otherwise one. The candidate
 * offsets are those a day before and a day after; each candidate is kept only if the zone really
 * shows that time then.
 */
export function instantsOfWallClock(wall: Omit<WallClock, "second">, zone: string): number[] {
  const asUtc = utcMilliseconds(wall.year, wall.month, wall.day, wall.hour, wall.minute);
  const candidates = [...new Set([asUtc - offsetAt(asUtc - DAY, zone), asUtc - offsetAt(asUtc + DAY, zone)])].sort(
    (a, b) => a - b,
  );
  return candidates.filter((instant) => {
    const shown = wallClockAt(instant, zone);
    return (
      shown.year === wall.year &&
      shown.month === wall.month &&
      shown.day === wall.day &&
      shown.hour === wall.hour &&
      shown.minute === wall.minute &&
      shown.second === 0
    );
  });
}
