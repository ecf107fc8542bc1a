import { describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, symlinkSync, writeFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { rulesDirectory } from "../support/rules-directory.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";
import {
  serverEnvironment,
  startExpectingFailure,
  startServer,
  type ServerProcess,
} from "../support/server-process.ts";

/** RULES_REFRESH=interval against a real process checking every second (SERVER.md, Scheduled refresh). */
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

test("a changed file reloads once; a check that finds nothing changed logs nothing; a dot-file does not count", async () => {
  const rules = rulesDirectory();
  const server = await startServer(serverEnvironment(rules.path, interval));
  try {
    expect(server.logs().find((line) => line.msg === "listening")!.refresh).toBe("interval");
    await Bun.sleep(2200);
    expect(reloads(server)).toBe(0);
    rules.write(".editor-swap", "ignored");
    await Bun.sleep(2200);
    expect(reloads(server)).toBe(0);
    const shop = readFileSync(join(rules.path, "shop-order.ruleset.yaml"), "utf8");
    rules.write("shop-order.ruleset.yaml", shop.replace("default: 100", "default: 120"));
    await server.waitForLog((line) => line.msg === "rules reloaded" && line.trigger === "interval");
    await Bun.sleep(2200);
    expect(reloads(server)).toBe(1);
  } finally {
    await server.kill();
    rules.remove();
  }
});

test("refused content is not tried again until it changes; then it reloads", async () => {
  const rules = rulesDirectory();
  const server = await startServer(serverEnvironment(rules.path, interval));
  try {
    rules.write("broken.ruleset.yaml", "ruleCascade: '1.0.0'\n");
    const refused = await server.waitForLog((line) => line.msg === "reload refused, still serving the previous rules");
    expect(refused.trigger).toBe("interval");
    await Bun.sleep(2500);
    expect(refusals(server)).toBe(1);
    rules.write(
      "broken.ruleset.yaml",
      readFileSync(join(rules.path, "shop-order.ruleset.yaml"), "utf8").replace(
        "id: shop.orders.order",
        "id: shop.orders.fixed",
      ),
    );
    await server.waitForLog((line) => line.msg === "rules reloaded" && line.trigger === "interval");
    expect(((await (await fetch(`${server.url}/readyz`)).json()) as { rulesets: number }).rulesets).toBe(5);
  } finally {
    await server.kill();
    rules.remove();
  }
});

test("SIGHUP always reloads, and counts as an attempt so the schedule does not load the same files again", async () => {
  const rules = rulesDirectory();
  const server = await startServer(
    serverEnvironment(rules.path, { RULES_REFRESH: "interval", RULES_REFRESH_INTERVAL: "2s" }),
  );
  try {
    server.signal("SIGHUP");
    await server.waitForLog((line) => line.msg === "rules reloaded" && line.trigger === "SIGHUP");
    const shop = readFileSync(join(rules.path, "shop-order.ruleset.yaml"), "utf8");
    rules.write("shop-order.ruleset.yaml", shop.replace("default: 100", "default: 130"));
    server.signal("SIGHUP");
    await server.waitForLog(
      (line) => line.msg === "rules reloaded" && line.trigger === "SIGHUP" && reloads(server, "SIGHUP") === 2,
    );
    await Bun.sleep(4500);
    expect(reloads(server, "interval")).toBe(0);
  } finally {
    await server.kill();
    rules.remove();
  }
});

test("a ConfigMap-style layout reached through a ..data symlink reloads once per atomic swap", async () => {
  const volume = temporaryDirectory({});
  const source = rulesDirectory();
  try {
    const makeVersion = (name: string, maxQuantity: number): void => {
      mkdirSync(join(volume.path, name));
      for (const file of readdirSync(source.path)) {
        const text = readFileSync(join(source.path, file), "utf8");
        writeFileSync(
          join(volume.path, name, file),
          file === "shop-order.ruleset.yaml" ? text.replace("default: 100", `default: ${maxQuantity}`) : text,
        );
      }
    };
    makeVersion("..2026_11_21_10_00_00.0001", 100);
    symlinkSync("..2026_11_21_10_00_00.0001", join(volume.path, "..data"));
    for (const file of readdirSync(source.path)) symlinkSync(join("..data", file), join(volume.path, file));
    const server = await startServer(serverEnvironment(volume.path, interval));
    try {
      await Bun.sleep(1500);
      // The kubelet writes a new timestamped directory, then swaps ..data with one rename.
      makeVersion("..2026_11_21_10_05_00.0002", 140);
      symlinkSync("..2026_11_21_10_05_00.0002", join(volume.path, "..data_tmp"));
      renameSync(join(volume.path, "..data_tmp"), join(volume.path, "..data"));
      await server.waitForLog((line) => line.msg === "rules reloaded" && line.trigger === "interval");
      await Bun.sleep(2500);
      expect(reloads(server)).toBe(1);
      const result = (await (
        await fetch(`${server.url}/evaluations`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${serverEnvironment("").RULE_SERVER_TOKEN}`,
            "Content-Type": "application/json",
          },
          body: JSON.stringify({
            ruleset: "shop.orders.order",
            entity: "Order",
            operation: "create",
            data: { quantity: 130, unitPrice: 1, customer: { email: "a@b.c" } },
          }),
        })
      ).json()) as { decision: string };
      expect(result.decision).toBe("allow");
    } finally {
      await server.kill();
    }
  } finally {
    volume.remove();
    source.remove();
  }
});

test("the timers stop when the drain starts", async () => {
  const rules = rulesDirectory();
  const server = await startServer(serverEnvironment(rules.path, { ...interval, DRAIN_SECONDS: "4" }));
  try {
    server.signal("SIGTERM");
    await server.waitForLog((line) => line.msg === "draining");
    rules.write(
      "shop-order.ruleset.yaml",
      readFileSync(join(rules.path, "shop-order.ruleset.yaml"), "utf8").replace("default: 100", "default: 150"),
    );
    await Bun.sleep(2500);
    expect(reloads(server)).toBe(0);
    expect(await server.exited).toBe(0);
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

  test("a cron schedule reloads changed files at its next fire time, logged with trigger cron", async () => {
    const dir = rulesDirectory();
    const server = await startServer(
      serverEnvironment(dir.path, {
        RULES_REFRESH: "cron",
        RULES_REFRESH_CRON: "* * * * *",
        RULES_REFRESH_TZ: "Europe/Berlin",
      }),
    );
    try {
      expect(server.logs().find((line) => line.msg === "listening")!.refresh).toBe("cron");
      dir.write(
        "shop-order.ruleset.yaml",
        readFileSync(join(dir.path, "shop-order.ruleset.yaml"), "utf8").replace("default: 100", "default: 110"),
      );
      const reloaded = await server.waitForLog((line) => line.msg === "rules reloaded", 65000);
      expect(reloaded.trigger).toBe("cron");
      expect(new Date(String(reloaded.time)).getUTCSeconds()).toBeLessThan(5);
    } finally {
      await server.kill();
      dir.remove();
    }
  }, 70000);
});
