import { expect, test } from "bun:test";
import { ServerMetrics } from "../../../src/server/metrics/server-metrics.ts";
import { RetiredCounts } from "../../../src/server/supervisor/retired-counts.ts";
import { parseExposition } from "../../support/prometheus-exposition.ts";

/** The supervisor's exposition: its own counts plus its serving processes', label set by label set. */
const served = () => ({ rulesets: { size: 3 }, loadedAt: "2026-11-20T10:00:00.000Z" });

function servingProcess(
  requests: number,
  evaluations: Record<string, number>,
  seconds: readonly number[],
): ServerMetrics {
  const metrics = new ServerMetrics(served);
  const route = metrics.route("/evaluations");
  for (let index = 0; index < requests; index++) route.record("POST", 200, seconds[index % seconds.length]!);
  for (const [decision, count] of Object.entries(evaluations))
    for (let index = 0; index < count; index++)
      metrics.countEvaluation({ ruleset: "shop", decision, rules: 2 } as never);
  return metrics;
}

test("counters and histograms are summed over the processes; gauges are the supervisor's, resident memory everyone's", () => {
  const supervisor = new ServerMetrics(served, () => 2);
  supervisor.countReload("SIGHUP", "reloaded");
  supervisor.countProcessRestart();
  const first = servingProcess(3, { allow: 2, deny: 1 }, [0.0002, 0.02]).state();
  const second = servingProcess(5, { allow: 1 }, [0.3]).state();
  const exposition = parseExposition(supervisor.renderSum([first, second]));

  expect(exposition.value("rule_server_requests_total", { route: "/evaluations", method: "POST", status: "200" })).toBe(
    8,
  );
  expect(exposition.value("rule_server_evaluations_total", { ruleset: "shop", decision: "allow" })).toBe(3);
  expect(exposition.value("rule_server_evaluations_total", { ruleset: "shop", decision: "deny" })).toBe(1);
  expect(exposition.value("rule_server_request_duration_seconds_count", { route: "/evaluations" })).toBe(8);
  expect(exposition.value("rule_server_request_duration_seconds_bucket", { route: "/evaluations", le: "0.0005" })).toBe(
    2,
  );
  expect(exposition.value("rule_server_request_duration_seconds_bucket", { route: "/evaluations", le: "0.025" })).toBe(
    3,
  );
  expect(exposition.value("rule_server_request_duration_seconds_bucket", { route: "/evaluations", le: "+Inf" })).toBe(
    8,
  );
  expect(exposition.value("rule_server_request_duration_seconds_sum", { route: "/evaluations" })).toBeCloseTo(
    0.0002 * 2 + 0.02 + 0.3 * 5,
  );
  expect(exposition.value("rule_server_reloads_total", { trigger: "SIGHUP", outcome: "reloaded" })).toBe(1);
  expect(exposition.value("rule_server_serving_process_restarts_total")).toBe(1);
  expect(exposition.value("rule_server_serving_processes")).toBe(2);
  expect(exposition.value("rule_server_rulesets")).toBe(3);
  const own = process.memoryUsage.rss();
  expect(exposition.value("process_resident_memory_bytes")).toBeGreaterThanOrEqual(
    own + first.residentBytes + second.residentBytes - 16 * 1024 * 1024,
  );
  // Once rendered, the supervisor's own exposition is its own again.
  expect(parseExposition(supervisor.render()).value("process_resident_memory_bytes")).toBeLessThan(
    own + first.residentBytes,
  );
  expect(
    parseExposition(supervisor.render()).value("rule_server_requests_total", {
      route: "/evaluations",
      method: "POST",
      status: "200",
    }),
  ).toBe(0);
});

test("the counts of processes that stopped stay in the sum, so counters never go down when one is replaced", () => {
  const retired = new RetiredCounts();
  retired.add(servingProcess(4, { deny: 4 }, [0.001]).state());
  retired.add(servingProcess(2, { deny: 1 }, [0.001]).state());
  const living = servingProcess(1, { deny: 1 }, [0.001]).state();
  const exposition = parseExposition(new ServerMetrics(served).renderSum([retired.state(), living]));
  expect(exposition.value("rule_server_requests_total", { route: "/evaluations", method: "POST", status: "200" })).toBe(
    7,
  );
  expect(exposition.value("rule_server_evaluations_total", { ruleset: "shop", decision: "deny" })).toBe(6);
  expect(exposition.value("rule_server_request_duration_seconds_count", { route: "/evaluations" })).toBe(7);
  expect(retired.state().residentBytes).toBe(0);
});

test("a process's counts survive the JSON they travel in", () => {
  const state = servingProcess(2, { allow: 2 }, [0.004]).state();
  const exposition = parseExposition(new ServerMetrics(served).renderSum([JSON.parse(JSON.stringify(state))]));
  expect(exposition.value("rule_server_requests_total", { route: "/evaluations", method: "POST", status: "200" })).toBe(
    2,
  );
});
