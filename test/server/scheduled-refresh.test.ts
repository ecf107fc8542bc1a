import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { rulesDirectory } from "../support/rules-directory.ts";
import {
  serverEnvironment,
  startExpectingFailure,
  startServer,
  type ServerProcess,
} from "../support/server-process.ts";

/**
 * The refresh settings of a real process (SERVER.md, Scheduled refresh): refused ones stop the
 * start, valid ones run. What the schedule does over time is tested in process on a clock the test
 * moves (refresh/scheduled-refresh.test.ts), rather than by sleeping here.
 */
const reloads = (server: ServerProcess, trigger = "interval"): number =>
  server.logs().filter((line) => line.msg === "rules reloaded" && line.trigger === trigger).length;
const refusals = (server: ServerProcess): number =>
  server.logs().filter((line) => line.msg === "reload refused, still serving the previous rules").length;
const interval = { RULES_REFRESH: "interval", RULES_REFRESH_INTERVAL: "1s" };

describe("settings", () => {
  const invalid: [string, Record<string, string>][] = [
    ["interval without RULES_REFRESH_INTERVAL", { RULES_REFRESH: "interval" }],
    ["an interval under one second", { RULES_REFRESH: "interval", RULES_REFRESH_INTERVAL: "999ms" }],
    ["an interval that is not one", { RULES_REFRESH: "interval", RULES_REFRESH_INTERVAL: "often" }],
    ["cron without RULES_REFRESH_CRON", { RULES_REFRESH: "cron" }],
  ];
  const rules = rulesDirectory();
  for (const [name, env] of invalid) {
    test(`${name} stops start-up with a fatal line and status 1`, async () => {
      const run = await startExpectingFailure(serverEnvironment(rules.path, env));
      expect(run.status).toBe(1);
      expect(run.logs.at(-1)!.level).toBe("fatal");
    });
  }
});

test("a real process checks on its interval: a changed file is reloaded, logged with trigger interval", async () => {
  const rules = rulesDirectory();
  const server = await startServer(serverEnvironment(rules.path, interval));
  try {
    expect(server.logs().find((line) => line.msg === "listening")!.refresh).toBe("interval");
    const shop = readFileSync(join(rules.path, "shop-order.ruleset.yaml"), "utf8");
    rules.write("shop-order.ruleset.yaml", shop.replace("default: 100", "default: 120"));
    await server.waitForLog((line) => line.msg === "rules reloaded" && line.trigger === "interval");
    expect(reloads(server)).toBe(1);
    expect(refusals(server)).toBe(0);
  } finally {
    await server.kill();
    rules.remove();
  }
});

describe("cron", () => {
  const rules = rulesDirectory();
  const refused: [string, Record<string, string>][] = [
    ["an expression that is not cron", { RULES_REFRESH: "cron", RULES_REFRESH_CRON: "every day" }],
    ["a schedule that can never fire", { RULES_REFRESH: "cron", RULES_REFRESH_CRON: "0 0 30 2 *" }],
    [
      "an unknown time zone",
      { RULES_REFRESH: "cron", RULES_REFRESH_CRON: "0 3 * * *", RULES_REFRESH_TZ: "Mars/Olympus" },
    ],
    [
      "a time that always falls in a DST gap of its zone",
      { RULES_REFRESH: "cron", RULES_REFRESH_CRON: "30 2 8-14 3 */7", RULES_REFRESH_TZ: "America/New_York" },
    ],
  ];
  for (const [name, env] of refused) {
    test(`${name} stops start-up with a fatal line and status 1`, async () => {
      const run = await startExpectingFailure(serverEnvironment(rules.path, env));
      expect(run.status).toBe(1);
      expect(JSON.stringify(run.logs.at(-1))).toContain("RULES_REFRESH_");
    });
  }

  test("a valid schedule starts, and the listening line says cron (its fire times: refresh/scheduled-refresh.test.ts)", async () => {
    const server = await startServer(
      serverEnvironment(rules.path, {
        RULES_REFRESH: "cron",
        RULES_REFRESH_CRON: "* * * * *",
        RULES_REFRESH_TZ: "Europe/Berlin",
      }),
    );
    try {
      expect(server.logs().find((line) => line.msg === "listening")!.refresh).toBe("cron");
    } finally {
      await server.kill();
    }
  });
});
