import { expect, test } from "bun:test";
import { ServerMetrics } from "../../../src/server/metrics/server-metrics.ts";

/** rule_server_requests_refused_total: by reason and caller, callers bounded so that JWT subjects cannot grow the series without end. */
test("refusals are counted by reason and caller; past 100 callers the rest count as other", () => {
  const metrics = new ServerMetrics(() => undefined);
  metrics.countRefused("unauthenticated", "");
  metrics.countRefused("unauthenticated", "");
  for (let caller = 0; caller < 105; caller++) metrics.countRefused("forbidden", `user-${caller}`);
  metrics.countRefused("forbidden", "user-3");
  const lines = metrics
    .render()
    .split("\n")
    .filter((line) => line.startsWith("rule_server_requests_refused_total{"));
  expect(lines).toContain('rule_server_requests_refused_total{reason="unauthenticated",caller=""} 2');
  expect(lines).toContain('rule_server_requests_refused_total{reason="forbidden",caller="user-3"} 2');
  expect(lines).toContain('rule_server_requests_refused_total{reason="forbidden",caller="user-99"} 1');
  expect(lines).toContain('rule_server_requests_refused_total{reason="forbidden",caller="other"} 5');
  expect(lines.some((line) => line.includes('caller="user-100"'))).toBe(false);
  expect(lines).toHaveLength(1 + 100 + 1);
});
