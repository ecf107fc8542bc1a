import { describe, expect, test } from "bun:test";
import { runCronCommand } from "../../../src/cli/cron-command.ts";
import { UsageError } from "../../../src/cli/usage-error.ts";
import { capturedIo } from "../../support/run-cli.ts";
import {
  formatRfc3339,
  nextFireTimes,
  parseCron,
  parseRfc3339,
  validateTimeZone,
} from "../../../src/schedule/cron/index.ts";
import fireCases from "../../cases/cron/next-fire-times.json" with { type: "json" };
import refusedCases from "../../cases/cron/refused.json" with { type: "json" };

/**
 * Cron schedules as the contract's "Cron syntax" defines them. The expected fire times in
 * next-fire-times.json were computed independently: by stepping UTC minute by minute through
 * Python's zoneinfo and firing where the wall clock matches and is not a repeated (fold 1) time.
 */

interface FireCase {
  name: string;
  expr: string;
  tz: string;
  after: string;
  next: string[];
}

async function cli(args: string[], now?: Date): Promise<{ status: number; stdout: string; stderr: string }> {
  const captured = capturedIo();
  const status = await runCronCommand(args, captured.io, () => now ?? new Date());
  return { status, stdout: captured.stdout(), stderr: captured.stderr() };
}

function fireTimes(expr: string, zone: string, after: string, count: number): string[] {
  const parsed = parseCron(expr);
  if (!parsed.ok) throw new Error(parsed.reason);
  return nextFireTimes(parsed.schedule, zone, parseRfc3339(after)!, count).map((time) => formatRfc3339(time, zone));
}

test("the tables hold at least 60 fire-time cases and cover every zone the contract's issue names", () => {
  expect(fireCases.length).toBeGreaterThanOrEqual(60);
  const zones = new Set((fireCases as FireCase[]).map((c) => c.tz));
  for (const zone of ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu"])
    expect(zones).toContain(zone);
});

describe("next fire times", () => {
  for (const c of fireCases as FireCase[]) {
    test(`${c.name}: ${JSON.stringify(c.expr)} in ${c.tz} after ${c.after}`, () => {
      expect(fireTimes(c.expr, c.tz, c.after, c.next.length)).toEqual(c.next);
    });
  }
});

describe("the cron command prints the same times", () => {
  for (const c of (fireCases as FireCase[]).filter((_, index) => index % 4 === 0)) {
    test(c.name, async () => {
      const run = await cli([c.expr, "--tz", c.tz, "--after", c.after, "--count", String(c.next.length)]);
      expect(run).toEqual({ status: 0, stdout: c.next.map((time) => `${time}\n`).join(""), stderr: "" });
    });
  }
});

describe("refused expressions", () => {
  for (const c of refusedCases) {
    test(`${c.name}: ${JSON.stringify(c.expr)}`, async () => {
      const parsed = parseCron(c.expr);
      expect(parsed.ok).toBe(false);
      if (parsed.ok) return;
      expect(parsed.reason).toContain(c.because);
      // One English sentence: no line breaks, no trailing full stop to double up in messages.
      expect(parsed.reason).not.toMatch(/[\n.]$/);
      // An argument that begins with "-" is read as an option: a usage error before parsing.
      if (c.expr.startsWith("-")) return void (await expect(cli([c.expr])).rejects.toThrow(UsageError));
      const run = await cli([c.expr, "--after", "2026-01-01T00:00:00Z"]);
      expect(run).toEqual({ status: 1, stdout: "", stderr: `rule-server cron: ${parsed.reason}\n` });
    });
  }
});

describe("parsed schedules", () => {
  test("7 is stored as Sunday 0, values sorted and de-duplicated", () => {
    const parsed = parseCron("5,0,5 0 * * 7,0,1");
    expect(parsed.ok && parsed.schedule.daysOfWeek).toEqual([0, 1]);
    expect(parsed.ok && parsed.schedule.minutes).toEqual([0, 5]);
  });

  test("a day field is restricted unless it begins with *", () => {
    const flags = (expr: string) => {
      const parsed = parseCron(expr);
      return parsed.ok ? [parsed.schedule.dayOfMonthRestricted, parsed.schedule.dayOfWeekRestricted] : parsed.reason;
    };
    expect(flags("0 0 * * *")).toEqual([false, false]);
    expect(flags("0 0 */2 * */2")).toEqual([false, false]);
    expect(flags("0 0 *,3 * *,3")).toEqual([false, false]);
    expect(flags("0 0 1-31 * 0-7")).toEqual([true, true]);
    expect(flags("0 0 3,* * 3,*")).toEqual([true, true]);
  });

  test("29 February is a day that occurs, so the schedule is accepted", () => {
    expect(parseCron("0 0 29 2 *").ok).toBe(true);
    expect(parseCron("0 0 29-31 2 *").ok).toBe(true);
  });

  test("the schedule keeps its text without surrounding spaces and tabs", () => {
    const parsed = parseCron("\t 0  0 * * * ");
    expect(parsed.ok && parsed.schedule.text).toBe("0  0 * * *");
  });
});

describe("time zones and RFC 3339", () => {
  test("zones are the platform's Intl zones", () => {
    expect(validateTimeZone("Europe/Berlin")).toBe(true);
    expect(validateTimeZone("UTC")).toBe(true);
    expect(validateTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(validateTimeZone("")).toBe(false);
  });

  test("nextFireTimes refuses an unknown zone with a RangeError", () => {
    const parsed = parseCron("* * * * *");
    expect(() => parsed.ok && nextFireTimes(parsed.schedule, "Mars/Olympus_Mons", new Date(0), 1)).toThrow(RangeError);
  });

  test("formatting writes the zone's offset, +00:00 for UTC, never Z", () => {
    const instant = new Date("2026-03-29T01:00:00Z");
    expect(formatRfc3339(instant, "UTC")).toBe("2026-03-29T01:00:00+00:00");
    expect(formatRfc3339(instant, "Europe/Berlin")).toBe("2026-03-29T03:00:00+02:00");
    expect(formatRfc3339(instant, "America/New_York")).toBe("2026-03-28T21:00:00-04:00");
    expect(formatRfc3339(instant, "Asia/Kathmandu")).toBe("2026-03-29T06:45:00+05:45");
    expect(formatRfc3339(new Date("2026-04-04T14:59:00Z"), "Australia/Lord_Howe")).toBe("2026-04-05T01:59:00+11:00");
    expect(formatRfc3339(new Date("2026-04-04T15:00:00Z"), "Australia/Lord_Howe")).toBe("2026-04-05T01:30:00+10:30");
  });

  test("RFC 3339 date-times are read with their offset; other text is refused", () => {
    expect(parseRfc3339("2026-03-29T01:30:00+01:00")?.toISOString()).toBe("2026-03-29T00:30:00.000Z");
    expect(parseRfc3339("2026-03-29t01:30:00.250z")?.toISOString()).toBe("2026-03-29T01:30:00.250Z");
    expect(parseRfc3339("2026-03-29T01:30:00-05:45")?.toISOString()).toBe("2026-03-29T07:15:00.000Z");
    for (const text of [
      "2026-03-29T01:30:00",
      "2026-03-29 01:30:00Z",
      "2026-02-29T00:00:00Z",
      "2026-13-01T00:00:00Z",
      "2026-01-01T24:00:00Z",
      "now",
      "2026-01-01T00:00:00+25:00",
    ]) {
      expect(parseRfc3339(text)).toBeUndefined();
    }
  });
});

describe("the search", () => {
  test("29 February from 2026 is found without stepping through the minutes", () => {
    const parsed = parseCron("0 0 29 2 *");
    if (!parsed.ok) throw new Error(parsed.reason);
    const started = performance.now();
    const times = nextFireTimes(parsed.schedule, "Europe/Berlin", new Date("2026-01-01T00:00:00Z"), 10);
    expect(performance.now() - started).toBeLessThan(200);
    expect(times[0]?.toISOString()).toBe("2028-02-28T23:00:00.000Z");
    expect(times).toHaveLength(10);
  });

  test("a thousand minutes in a row", async () => {
    const run = await cli([
      "* * * * *",
      "--tz",
      "Asia/Kathmandu",
      "--after",
      "2026-01-01T00:00:00Z",
      "--count",
      "1000",
    ]);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(1000);
    expect(lines[0]).toBe("2026-01-01T05:46:00+05:45");
    expect(lines[999]).toBe("2026-01-01T22:25:00+05:45");
  });

  test("a schedule the zone's clocks always skip is reported, not looped on forever", async () => {
    // 02:30 on the second Sunday of March is inside New York's spring-forward gap every year.
    const run = await cli(["30 2 8-14 3 */7", "--tz", "America/New_York", "--after", "2026-01-01T00:00:00Z"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      "rule-server cron: the schedule does not fire in America/New_York within 400 years after 2025-12-31T19:00:00-05:00\n",
    );
  });

  test("no more than the asked number, all strictly increasing", () => {
    const times = fireTimes("*/7 * * * *", "Australia/Lord_Howe", "2026-04-04T23:30:00+11:00", 200);
    expect(times).toHaveLength(200);
    const instants = times.map((time) => Date.parse(time));
    for (let i = 1; i < instants.length; i++) expect(instants[i]!).toBeGreaterThan(instants[i - 1]!);
  });
});

describe("rule-server cron", () => {
  test("defaults: UTC, five times, after now", async () => {
    const run = await cli(["0 * * * *"], new Date("2026-06-01T10:15:00Z"));
    expect(run).toEqual({
      status: 0,
      stdout: ["11", "12", "13", "14", "15"].map((hour) => `2026-06-01T${hour}:00:00+00:00\n`).join(""),
      stderr: "",
    });
  });

  test("--count 1 and --count 1000 are the limits", async () => {
    expect((await cli(["* * * * *", "--count", "1"], new Date(0))).stdout).toBe("1970-01-01T00:01:00+00:00\n");
    expect((await cli(["* * * * *", "--count", "1000"], new Date(0))).status).toBe(0);
  });

  test("an unknown zone is refused", async () => {
    expect(await cli(["* * * * *", "--tz", "Mars/Olympus_Mons"])).toEqual({
      status: 1,
      stdout: "",
      stderr: "rule-server cron: unknown time zone 'Mars/Olympus_Mons'\n",
    });
  });

  test("a bad --after is refused", async () => {
    for (const after of ["yesterday", "2026-01-01", "2026-01-01T00:00:00", "2026-02-30T00:00:00Z"]) {
      const run = await cli(["* * * * *", "--after", after]);
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(
        `rule-server cron: --after '${after}' is not an RFC 3339 date-time such as 2026-03-29T01:30:00+01:00\n`,
      );
    }
  });

  test("a bad --count is refused", async () => {
    for (const count of ["0", "1001", "-1", "2.5", "five", "", "99999"]) {
      const run = await cli(["* * * * *", "--count", count]);
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(`rule-server cron: --count must be a whole number from 1 to 1000, not '${count}'\n`);
    }
  });

  test("no expression, an unquoted expression or an unknown option is a usage error", async () => {
    await expect(cli([])).rejects.toThrow(UsageError);
    await expect(cli(["--tz", "UTC"])).rejects.toThrow(UsageError);
    await expect(cli(["0", "0", "*", "*", "*"])).rejects.toThrow("quote the schedule");
    await expect(cli(["* * * * *", "--zone", "UTC"])).rejects.toThrow("unknown option --zone");
    await expect(cli(["* * * * *", "--tz"])).rejects.toThrow("--tz needs a value");
  });
});
