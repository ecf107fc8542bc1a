import { formatRfc3339 } from "../schedule/cron/format-rfc3339.ts";
import { nextFireTimes, SEARCH_YEARS } from "../schedule/cron/next-fire-times.ts";
import { parseCron } from "../schedule/cron/parse-cron.ts";
import { parseRfc3339 } from "../schedule/cron/parse-rfc3339.ts";
import { validateTimeZone } from "../schedule/cron/time-zone.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { UsageError } from "./usage-error.ts";
import type { CommandIo } from "./command-io.ts";

const MAX_COUNT = 1000;

/**
 * `rule-server cron '<expr>' [--tz Zone] [--after RFC3339] [--count N]`: the next N fire times of a
 * schedule (default 5, at most 1000) after a moment (default now) in a zone (default UTC), one RFC
 * 3339 time with offset a line, exit 0; or `rule-server cron: <reason>` on stderr and exit 1 when
 * the expression, zone, --after or --count is refused. The expression is one argument: quote it.
 * `now` is the clock, which tests fix.
 */
export async function runCronCommand(
  args: readonly string[],
  io: CommandIo,
  now: () => Date = () => new Date(),
): Promise<number> {
  const parsed = parseCommandArguments("cron", args, { options: ["--tz", "--after", "--count"] });
  if (parsed.positional.length === 0)
    throw new UsageError("cron: give the schedule as one quoted argument, for example rule-server cron '0 3 * * *'");
  if (parsed.positional.length > 1)
    throw new UsageError(
      "cron: quote the schedule so that it is one argument, for example rule-server cron '0 3 * * *'",
    );
  const fail = async (reason: string): Promise<number> => {
    await io.stderr.write(`rule-server cron: ${reason}\n`);
    return 1;
  };

  const cron = parseCron(parsed.positional[0]!);
  if (!cron.ok) return fail(cron.reason);
  const zone = parsed.options.get("--tz") ?? "UTC";
  if (!validateTimeZone(zone)) return fail(`unknown time zone '${zone}'`);
  const afterText = parsed.options.get("--after");
  const after = afterText === undefined ? now() : parseRfc3339(afterText);
  if (after === undefined)
    return fail(`--after '${afterText}' is not an RFC 3339 date-time such as 2026-03-29T01:30:00+01:00`);
  const countText = parsed.options.get("--count") ?? "5";
  const count = /^\d{1,4}$/.test(countText) ? Number(countText) : NaN;
  if (!(count >= 1 && count <= MAX_COUNT))
    return fail(`--count must be a whole number from 1 to ${MAX_COUNT}, not '${countText}'`);

  const times = nextFireTimes(cron.schedule, zone, after, count);
  if (times.length === 0)
    return fail(
      `the schedule does not fire in ${zone} within ${SEARCH_YEARS} years after ${formatRfc3339(after, zone)}`,
    );
  await io.stdout.write(times.map((time) => `${formatRfc3339(time, zone)}\n`).join(""));
  if (times.length < count)
    await io.stderr.write(`rule-server cron: only ${times.length} fire times within ${SEARCH_YEARS} years\n`);
  return 0;
}
