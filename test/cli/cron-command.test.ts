import { expect, test } from "bun:test";
import { runCli } from "../support/run-cli.ts";

/** `rule-server cron` through the real command line, as an operator runs it before deploying. */
test("prints the next fire times in RFC 3339 with the zone's offset, across a DST change", async () => {
  const run = await runCli([
    "cron",
    "30 2 * * *",
    "--tz",
    "Europe/Berlin",
    "--after",
    "2026-03-28T12:00:00Z",
    "--count",
    "3",
  ]);
  expect(run.status).toBe(0);
  // 2026-03-29 02:30 does not exist in Berlin (spring forward): that day is skipped.
  expect(run.stdout).toBe("2026-03-30T02:30:00+02:00\n2026-03-31T02:30:00+02:00\n2026-04-01T02:30:00+02:00\n");
});

test("a refused expression prints the reason and exits 1", async () => {
  const run = await runCli(["cron", "0 0 30 2 *"]);
  expect(run.status).toBe(1);
  expect(run.stderr).toContain("rule-server cron:");
});

test("without an expression it is a usage error", async () => expect((await runCli(["cron"])).status).toBe(2));
