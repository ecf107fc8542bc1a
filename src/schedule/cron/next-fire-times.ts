import type { CronSchedule } from "./cron-schedule.ts";
import { nextWallClockMatch, type WallClockMinute } from "./next-wall-clock-match.ts";
import { instantsOfWallClock } from "./time-zone.ts";
import { wallClockAt } from "./wall-clock.ts";

/**
 * How far ahead the search goes. The Gregorian calendar repeats every 400 years, so a schedule that
 * passed `parseCron` always matches some wall-clock time within it; only a zone whose clocks skip
 * every matching time (a schedule pinned to a spring-forward gap) can come up short. An 8-year bound
 * would not do: `0 0 29 2 *\/7` (29 February on a Sunday) fires every 28 years or so.
 */
export const SEARCH_YEARS = 400;

/** RFC 3339 has four-digit years; the search stops at the end of year 9999. */
const LAST_YEAR = 9999;

/**
 * The next `count` fire times of the schedule in `zone`, strictly after the minute that contains
 * `after` (its seconds are ignored), earliest first. Matching is on the zone's wall-clock time: a
 * wall-clock time that does not exist (spring forward) is skipped, and one that occurs twice (fall
 * back) fires once, at its first occurrence. Fewer than `count` times are returned only if the
 * search reaches {@link SEARCH_YEARS} years ahead or year 9999. Throws RangeError for an unknown zone.
 */
export function nextFireTimes(schedule: CronSchedule, zone: string, after: Date, count: number): Date[] {
  const afterInstant = after.getTime();
  if (!Number.isFinite(afterInstant)) throw new RangeError("nextFireTimes: after is an invalid Date");
  const wall = wallClockAt(afterInstant, zone);
  // The first instant of the next wall-clock minute; offsets can have seconds (local mean time).
  const earliest = afterInstant - wall.second * 1000 - (((afterInstant % 1000) + 1000) % 1000) + 60_000;
  const lastYear = Math.min(wall.year + SEARCH_YEARS, LAST_YEAR);
  const times: Date[] = [];
  let cursor: WallClockMinute | undefined = wall;
  while (times.length < count) {
    cursor = nextWallClockMatch(schedule, cursor, lastYear);
    if (cursor === undefined) break;
    // None: skipped by spring forward. Two: fall back; only the first fires, and only if it is
    // still ahead (`after` may lie in the second occurrence).
    const first = instantsOfWallClock(cursor, zone)[0];
    if (first !== undefined && first >= earliest) times.push(new Date(first));
  }
  return times;
}
