import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer, type RuleServer } from "../../../src/index.ts";
import type { RefreshSetting } from "../../../src/server/config/server-options.ts";
import { ManualClock } from "../../support/manual-clock.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { temporaryDirectory } from "../../support/temp-directory.ts";

/**
 * The refresh schedule (SERVER.md, "Scheduled refresh") in process, on a clock the test moves:
 * what a real server does over seconds or minutes is checked at once, and "nothing happened" is
 * proven rather than waited for. test/server/scheduled-refresh.test.ts keeps the real process.
 */
const TOKEN = "scheduled-refresh-test-token";
const EVERY_SECOND: RefreshSetting = { mode: "interval", intervalMs: 1000 };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Started {
  readonly server: RuleServer;
  readonly clock: ManualClock;
  readonly logs: Record<string, unknown>[];
  readonly reloads: (trigger?: string) => Record<string, unknown>[];
  readonly refusals: () => Record<string, unknown>[];
  readonly url: string;
}

async function start(
  rulesDir: string,
  refresh: RefreshSetting,
  options: { drainSeconds?: number; at?: string } = {},
): Promise<Started> {
  const clock = new ManualClock(options.at ?? "2026-11-27T10:00:00.000Z");
  const logs: Record<string, unknown>[] = [];
  const server = createServer({
    rulesDir,
    port: 0,
    hostname: "127.0.0.1",
    token: TOKEN,
    refresh,
    clock,
    drainSeconds: options.drainSeconds ?? 0,
    log: (line) => logs.push(JSON.parse(line)),
  });
  const { port } = await server.listen();
  cleanups.push(() => server.stop());
  const byMessage = (msg: string) => logs.filter((line) => line.msg === msg);
  return {
    server,
    clock,
    logs,
    reloads: (trigger = refresh.mode) => byMessage("rules reloaded").filter((line) => line.trigger === trigger),
    refusals: () => byMessage("reload refused, still serving the previous rules"),
    url: `http://127.0.0.1:${port}`,
  };
}

function withRules() {
  const rules = rulesDirectory();
  cleanups.push(() => rules.remove());
  const shop = (): string => readFileSync(join(rules.path, "shop-order.ruleset.yaml"), "utf8");
  return { ...rules, shop };
}

async function maxQuantityAllowed(url: string, quantity: number): Promise<string> {
  const answer = await fetch(`${url}/evaluations`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      ruleset: "shop.orders.order",
      entity: "Order",
      operation: "create",
      data: { quantity, unitPrice: 1, customer: { email: "a@b.c" } },
    }),
  });
  return ((await answer.json()) as { decision: string }).decision;
}

describe("an interval", () => {
  test("checks that find nothing changed log nothing, a dot-file does not count, and a changed file reloads once", async () => {
    const rules = withRules();
    const { clock, logs, reloads } = await start(rules.path, EVERY_SECOND);
    const linesAtStart = logs.length;
    await clock.advance(5000);
    expect(logs.length).toBe(linesAtStart);
    rules.write(".editor-swap", "ignored");
    await clock.advance(3000);
    expect(reloads()).toEqual([]);
    rules.write("shop-order.ruleset.yaml", rules.shop().replace("default: 100", "default: 120"));
    await clock.advance(1000);
    expect(reloads()).toHaveLength(1);
    expect(reloads()[0]!.loadedAt).toBe("2026-11-27T10:00:09.000Z");
    await clock.advance(10_000);
    expect(reloads()).toHaveLength(1);
  });

  test("refused content is not tried again until it changes; then it reloads", async () => {
    const rules = withRules();
    const { clock, reloads, refusals, url } = await start(rules.path, EVERY_SECOND);
    rules.write("broken.ruleset.yaml", "ruleCascade: '1.0.0'\n");
    await clock.advance(1000);
    expect(refusals()).toHaveLength(1);
    expect(refusals()[0]!.trigger).toBe("interval");
    await clock.advance(10_000);
    expect(refusals()).toHaveLength(1);
    rules.write("broken.ruleset.yaml", rules.shop().replace("id: shop.orders.order", "id: shop.orders.fixed"));
    await clock.advance(1000);
    expect(reloads()).toHaveLength(1);
    expect(((await (await fetch(`${url}/readyz`)).json()) as { rulesets: number }).rulesets).toBe(5);
  });

  test("a reload by SIGHUP counts as an attempt, so the schedule does not load the same files again", async () => {
    const rules = withRules();
    const { server, clock, reloads } = await start(rules.path, { mode: "interval", intervalMs: 2000 });
    rules.write("shop-order.ruleset.yaml", rules.shop().replace("default: 100", "default: 130"));
    // The path a SIGHUP takes (src/server/runtime/process-signals.ts); the signal itself: test/server/lifecycle.test.ts.
    expect(await server.reload("SIGHUP")).toEqual({ reloaded: true, rulesets: 4 });
    await clock.advance(10_000);
    expect(reloads("SIGHUP")).toHaveLength(1);
    expect(reloads("interval")).toEqual([]);
  });

  test("a ConfigMap-style layout reached through a ..data symlink reloads once per atomic swap", async () => {
    const volume = temporaryDirectory({});
    const source = withRules();
    cleanups.push(() => volume.remove());
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
    const { clock, reloads, url } = await start(volume.path, EVERY_SECOND);
    await clock.advance(2000);
    expect(await maxQuantityAllowed(url, 130)).toBe("deny");
    // The kubelet writes a new timestamped directory, then swaps ..data with one rename.
    makeVersion("..2026_11_21_10_05_00.0002", 140);
    symlinkSync("..2026_11_21_10_05_00.0002", join(volume.path, "..data_tmp"));
    renameSync(join(volume.path, "..data_tmp"), join(volume.path, "..data"));
    await clock.advance(5000);
    expect(reloads()).toHaveLength(1);
    expect(await maxQuantityAllowed(url, 130)).toBe("allow");
  });

  test("the timers stop when the drain starts", async () => {
    const rules = withRules();
    const { server, clock, reloads } = await start(rules.path, EVERY_SECOND, { drainSeconds: 4 });
    expect(clock.armed).toBe(1);
    const drained = server.drain();
    // Only the drain's own timer is left.
    expect(clock.armed).toBe(1);
    rules.write("shop-order.ruleset.yaml", rules.shop().replace("default: 100", "default: 150"));
    await clock.advance(3000);
    expect(reloads()).toEqual([]);
    await clock.advance(1000);
    await drained;
    expect(clock.armed).toBe(0);
    expect(reloads()).toEqual([]);
  });
});

describe("a cron schedule", () => {
  test("reloads changed files at its next fire time in its time zone, and only then", async () => {
    const rules = withRules();
    // 01:59:30 in Berlin (UTC+1 in November): the schedule fires at 02:00 there.
    const { clock, reloads } = await start(
      rules.path,
      { mode: "cron", expression: "0 2 * * *", timeZone: "Europe/Berlin" },
      { at: "2026-11-27T00:59:30.000Z" },
    );
    rules.write("shop-order.ruleset.yaml", rules.shop().replace("default: 100", "default: 110"));
    await clock.advance(29_999);
    expect(reloads()).toEqual([]);
    await clock.advance(1);
    expect(reloads()).toHaveLength(1);
    expect(reloads()[0]!.loadedAt).toBe("2026-11-27T01:00:00.000Z");
    // The next fire time is a day later: nothing before it, even with the files changed again.
    rules.write("shop-order.ruleset.yaml", rules.shop().replace("default: 110", "default: 120"));
    await clock.advance(24 * 3600_000 - 1);
    expect(reloads()).toHaveLength(1);
    await clock.advance(1);
    expect(reloads()).toHaveLength(2);
    expect(reloads()[1]!.loadedAt).toBe("2026-11-28T01:00:00.000Z");
  });

  test("every minute fires at the start of each minute", async () => {
    const rules = withRules();
    const { clock, reloads } = await start(
      rules.path,
      { mode: "cron", expression: "* * * * *", timeZone: "Europe/Berlin" },
      { at: "2026-11-27T10:00:42.500Z" },
    );
    rules.write("shop-order.ruleset.yaml", rules.shop().replace("default: 100", "default: 110"));
    await clock.advance(17_499);
    expect(reloads()).toEqual([]);
    await clock.advance(1);
    expect(reloads().map((line) => line.loadedAt)).toEqual(["2026-11-27T10:01:00.000Z"]);
  });
});
