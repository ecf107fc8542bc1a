import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { builtBrowserModule } from "../support/build-release.ts";
import { openInChromium, type ChromiumProcess } from "../support/headless-chromium.ts";
import { servePage, type PageServer } from "../support/page-server.ts";
import { rulesDirectory } from "../support/rules-directory.ts";
import { serverEnvironment, startServer, type ServerProcess } from "../support/server-process.ts";

/**
 * fetchRuleset in a real Chromium against a real rule-server process on another origin: the first
 * fetch is a 200, the next a 304 that reuses the loaded ruleset, and after a SIGHUP that changes
 * the ruleset the new manifest is picked up.
 */
const rules = rulesDirectory();
let server: ServerProcess;
let page: PageServer;
let chromium: ChromiumProcess;

beforeAll(async () => {
  const browserModule = builtBrowserModule();
  server = await startServer(serverEnvironment(rules.path));
  const pageFile = (name: string): string => readFileSync(join(import.meta.dir, "page", name), "utf8");
  page = servePage({
    "/fetch.html": { type: "text/html", body: pageFile("fetch.html") },
    "/fetch-page.js": { type: "text/javascript", body: pageFile("fetch-page.js") },
    "/rule-cascade.js": { type: "text/javascript", body: readFileSync(browserModule, "utf8") },
  });
  chromium = openInChromium(`${page.url}/fetch.html?server=${encodeURIComponent(server.url)}`);
}, 60000);

afterAll(async () => {
  await chromium?.close();
  page?.stop();
  await server?.kill();
  rules.remove();
});

async function reported(name: string): Promise<Record<string, unknown>> {
  const timeout = Bun.sleep(60_000).then(() => ({
    failed: `no report from Chromium within 60 s:\n${chromium.output()}`,
  }));
  const outcome = (await Promise.race([page.report(name), timeout])) as Record<string, unknown>;
  if (typeof outcome.failed === "string") throw new Error(outcome.failed);
  return outcome;
}

test("first fetch 200, second 304 with the same ruleset, a reloaded ruleset picked up", async () => {
  const served = (await (await fetch(`${server.url}/rulesets/shop.orders.order/manifest`)).json()) as {
    checksum: string;
  };
  const before = await reported("before");
  expect(before).toEqual({
    statuses: [200, 304],
    checksums: [served.checksum, served.checksum],
    same: true,
    decision: "deny",
  });

  const shop = readFileSync(join(rules.path, "shop-order.ruleset.yaml"), "utf8");
  rules.write("shop-order.ruleset.yaml", shop.replace("default: 100", "default: 200"));
  server.signal("SIGHUP");
  await server.waitForLog((line) => line.msg === "rules reloaded");
  const reloaded = (await (await fetch(`${server.url}/rulesets/shop.orders.order/manifest`)).json()) as {
    checksum: string;
  };
  expect(reloaded.checksum).not.toBe(served.checksum);
  page.open("reloaded");

  const after = await reported("after");
  expect(after).toEqual({ statuses: [200, 304, 200], checksum: reloaded.checksum, decision: "allow" });
});
