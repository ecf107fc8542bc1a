import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { CounterFamily } from "../../../src/server/metrics/counter-family.ts";
import { HistogramFamily } from "../../../src/server/metrics/histogram-family.ts";
import { parseExposition, type Exposition } from "../../support/prometheus-exposition.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { serverForSuite } from "../../support/server-for-suite.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../../support/server-process.ts";
import { slowBundle, slowRequest } from "../../support/slow-bundle.ts";

/** `GET /metrics` of a real server: the exposition parses, and counters move by exactly the traffic sent. */
const auth = { Authorization: `Bearer ${TOKEN}` };
const SHOP = "shop.orders.order";
const order = {
  ruleset: SHOP,
  entity: "Order",
  operation: "create",
  data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
};
const denied = { ...order, data: { quantity: 150, unitPrice: 1 } };

async function scrape(server: ServerProcess): Promise<Exposition> {
  const response = await fetch(`${server.url}/metrics`, { headers: auth });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return parseExposition(await response.text());
}
const evaluate = (server: ServerProcess, body: unknown): Promise<Response> =>
  fetch(`${server.url}/evaluations`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

for (const workers of ["0", "2"]) {
  describe(`with RULE_SERVER_WORKERS=${workers}`, () => {
    let server: ServerProcess;
    let rules: ReturnType<typeof rulesDirectory>;
    beforeAll(async () => {
      rules = rulesDirectory({ "shop.slow.bundle.json": slowBundle() });
      server = await startServer(
        serverEnvironment(rules.path, { RULE_SERVER_WORKERS: workers, RULE_EVALUATION_TIMEOUT_MS: "300" }),
      );
    });
    afterAll(async () => {
      await server.kill();
      rules.remove();
    });

    test("evaluations are counted by ruleset and decision, exactly as sent", async () => {
      const before = await scrape(server);
      for (let i = 0; i < 3; i++) expect((await evaluate(server, denied)).status).toBe(200);
      for (let i = 0; i < 2; i++) expect((await evaluate(server, order)).status).toBe(200);
      expect((await evaluate(server, { ...order, ruleset: "nope" })).status).toBe(404);
      const after = await scrape(server);
      const moved = (labels: Record<string, string>): number =>
        after.value("rule_server_evaluations_total", labels) - before.value("rule_server_evaluations_total", labels);
      expect(moved({ ruleset: SHOP, decision: "deny" })).toBe(3);
      expect(moved({ ruleset: SHOP, decision: "allow" })).toBe(2);
      expect(after.samples.some((sample) => sample.labels.ruleset === "nope")).toBe(false);
      const requests = (labels: Record<string, string>): number =>
        after.value("rule_server_requests_total", labels) - before.value("rule_server_requests_total", labels);
      expect(requests({ route: "/evaluations", method: "POST", status: "200" })).toBe(5);
      expect(requests({ route: "/evaluations", method: "POST", status: "404" })).toBe(1);
      expect(
        after.value("rule_server_evaluations_without_rules_total", { ruleset: SHOP }) -
          before.value("rule_server_evaluations_without_rules_total", { ruleset: SHOP }),
      ).toBe(0);
    });

    test("an evaluation whose entity matches no rule is counted as one without rules", async () => {
      const before = await scrape(server);
      const response = await evaluate(server, { ...order, entity: "Ordr" });
      expect(((await response.json()) as { decision: string }).decision).toBe("allow");
      const after = await scrape(server);
      expect(
        after.value("rule_server_evaluations_without_rules_total", { ruleset: SHOP }) -
          before.value("rule_server_evaluations_without_rules_total", { ruleset: SHOP }),
      ).toBe(1);
      const line = await server.waitForLog((entry) => entry.path === "/evaluations" && entry.entity === "Ordr");
      expect(line.rules).toBe(0);
    });

    if (workers !== "0") {
      test("a worker replaced after a timeout is counted with reason timeout", async () => {
        const before = await scrape(server);
        expect((await evaluate(server, slowRequest())).status).toBe(503);
        const after = await scrape(server);
        expect(
          after.value("rule_server_worker_replacements_total", { reason: "timeout" }) -
            before.value("rule_server_worker_replacements_total", { reason: "timeout" }),
        ).toBe(1);
      });
    }
  });
}

describe("the exposition", () => {
  const suite = serverForSuite();

  test("needs the token like an evaluation", async () => {
    const response = await fetch(`${suite.server.url}/metrics`);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
    expect((await fetch(`${suite.server.url}/metrics`, { headers: { Authorization: "Bearer wrong" } })).status).toBe(
      401,
    );
  });

  test("routes are patterns, unknown paths are unmatched, and durations form a histogram per route", async () => {
    const before = await scrape(suite.server);
    await fetch(`${suite.server.url}/rulesets/${SHOP}/manifest`);
    await fetch(`${suite.server.url}/rulesets/nope/manifest`);
    await fetch(`${suite.server.url}/no/such/path`);
    await fetch(`${suite.server.url}/another/unknown`);
    await fetch(`${suite.server.url}/rulesets`, { method: "DELETE" });
    const after = await scrape(suite.server);
    const moved = (labels: Record<string, string>): number =>
      after.value("rule_server_requests_total", labels) - before.value("rule_server_requests_total", labels);
    expect(moved({ route: "/rulesets/:id/manifest", method: "GET", status: "200" })).toBe(1);
    expect(moved({ route: "/rulesets/:id/manifest", method: "GET", status: "404" })).toBe(1);
    expect(moved({ route: "unmatched", method: "GET", status: "404" })).toBe(2);
    expect(moved({ route: "/rulesets", method: "DELETE", status: "405" })).toBe(1);
    expect(
      after.samples.some(
        (sample) => String(sample.labels.route).includes(SHOP) || String(sample.labels.route).includes("/no/"),
      ),
    ).toBe(false);
    const count = (exposition: Exposition): number =>
      exposition.value("rule_server_request_duration_seconds_count", { route: "/rulesets/:id/manifest" });
    expect(count(after) - count(before)).toBe(2);
    expect(
      after.value("rule_server_request_duration_seconds_bucket", { route: "/rulesets/:id/manifest", le: "+Inf" }),
    ).toBe(count(after));
    expect(after.types.get("rule_server_request_duration_seconds")).toBe("histogram");
  });

  test("holds every family with HELP and TYPE, the served rules, the build and the process", async () => {
    const exposition = await scrape(suite.server);
    const families: Record<string, string> = {
      rule_server_requests_total: "counter",
      rule_server_request_duration_seconds: "histogram",
      rule_server_evaluations_total: "counter",
      rule_server_evaluations_without_rules_total: "counter",
      rule_server_reloads_total: "counter",
      rule_server_rulesets: "gauge",
      rule_server_rules_loaded_timestamp_seconds: "gauge",
      rule_server_worker_replacements_total: "counter",
      rule_server_build_info: "gauge",
      process_resident_memory_bytes: "gauge",
      process_cpu_seconds_total: "counter",
      process_start_time_seconds: "gauge",
    };
    for (const [name, type] of Object.entries(families)) {
      expect(exposition.types.get(name), name).toBe(type);
      expect(exposition.help.get(name), name).toBeTruthy();
    }
    expect(exposition.value("rule_server_rulesets")).toBe(4);
    const { loadedAt } = (await (await fetch(`${suite.server.url}/readyz`)).json()) as { loadedAt: string };
    expect(exposition.value("rule_server_rules_loaded_timestamp_seconds")).toBe(Date.parse(loadedAt) / 1000);
    const version = ((await Bun.file(`${import.meta.dir}/../../../package.json`).json()) as { version: string })
      .version;
    expect(exposition.value("rule_server_build_info", { version })).toBe(1);
    expect(exposition.value("process_resident_memory_bytes")).toBeGreaterThan(1e6);
    const start = exposition.value("process_start_time_seconds");
    expect(Math.abs(start * 1000 - Date.now())).toBeLessThan(120_000);
  });

  test("reloads are counted by trigger and outcome", async () => {
    const before = await scrape(suite.server);
    suite.server.signal("SIGHUP");
    await suite.server.waitForLog((line) => line.msg === "rules reloaded");
    suite.rules.write("broken.ruleset.yaml", "ruleCascade: '1.0.0'\nkind: RuleSet\n");
    suite.server.signal("SIGHUP");
    await suite.server.waitForLog((line) => String(line.msg).startsWith("reload refused"));
    rmSync(join(suite.rules.path, "broken.ruleset.yaml"));
    const after = await scrape(suite.server);
    const moved = (outcome: string): number =>
      after.value("rule_server_reloads_total", { trigger: "SIGHUP", outcome }) -
      before.value("rule_server_reloads_total", { trigger: "SIGHUP", outcome });
    expect(moved("reloaded")).toBe(1);
    expect(moved("refused")).toBe(1);
  });
});

test("in open mode /metrics is served without a token", async () => {
  const rules = rulesDirectory();
  const server = await startServer(
    serverEnvironment(rules.path, { RULE_SERVER_TOKEN: "", RULE_SERVER_ALLOW_OPEN: "1" }),
  );
  try {
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(parseExposition(await response.text()).types.get("rule_server_requests_total")).toBe("counter");
  } finally {
    await server.kill();
    rules.remove();
  }
});

describe("rendering", () => {
  test("label values escape backslash, double quote and line feed, and read back unchanged", () => {
    const family = new CounterFamily("x_total", "Help with a \\ backslash\nand a line.", ["name"]);
    const awkward = 'a "quoted" \\ back\nslash';
    family.cell([awkward]).value += 2;
    const lines: string[] = [];
    family.render(lines);
    expect(lines[2]).toBe('x_total{name="a \\"quoted\\" \\\\ back\\nslash"} 2');
    const exposition = parseExposition(`${lines.join("\n")}\n`);
    expect(exposition.value("x_total", { name: awkward })).toBe(2);
    expect(exposition.help.get("x_total")).toBe("Help with a \\ backslash\nand a line.");
  });

  test("histogram buckets are cumulative, end in +Inf and agree with _count and _sum", () => {
    const family = new HistogramFamily("d_seconds", "Durations.", ["route"], [0.1, 1]);
    const cell = family.cell(["/a"]);
    for (const value of [0.05, 0.1, 0.5, 3]) cell.observe(value);
    const lines: string[] = [];
    family.render(lines);
    const exposition = parseExposition(`${lines.join("\n")}\n`);
    expect([0.1, 1].map((le) => exposition.value("d_seconds_bucket", { route: "/a", le: String(le) }))).toEqual([2, 3]);
    expect(exposition.value("d_seconds_bucket", { route: "/a", le: "+Inf" })).toBe(4);
    expect(exposition.value("d_seconds_count", { route: "/a" })).toBe(4);
    expect(exposition.value("d_seconds_sum", { route: "/a" })).toBeCloseTo(3.65);
  });
});
