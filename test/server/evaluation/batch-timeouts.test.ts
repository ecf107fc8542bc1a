import { expect, test } from "bun:test";
import { serverForSuite } from "../../support/server-for-suite.ts";
import { TOKEN } from "../../support/server-process.ts";
import { slowBundle, slowRequest } from "../../support/slow-bundle.ts";

/**
 * With workers, the items of a batch are spread over them, and RULE_EVALUATION_TIMEOUT_MS holds
 * for each item: one that runs past it is answered 503 in its place, its worker is replaced, and
 * every other item is answered (also those that waited behind it on that worker).
 */
const suite = serverForSuite(
  { RULE_SERVER_WORKERS: "2", RULE_EVALUATION_TIMEOUT_MS: "300" },
  { "slow.bundle.json": slowBundle() },
);
const auth = { Authorization: `Bearer ${TOKEN}` };
const order = {
  ruleset: "shop.orders.order",
  entity: "Order",
  operation: "create",
  data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
};

async function batch(
  items: unknown[],
  requestId: string,
): Promise<{ id?: string; status: number; result?: { decision: string }; problem?: Record<string, unknown> }[]> {
  const response = await fetch(`${suite.server.url}/evaluations/batch`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json", "X-Request-Id": requestId },
    body: JSON.stringify({ items }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: never[] }).results;
}

test("a slow item among fast ones is answered 503 alone; the fast ones, also those queued behind it, are answered 200", async () => {
  // More items than two workers take at once: some wait on the worker that is replaced.
  const items = Array.from({ length: 40 }, (_, index) =>
    index === 5 ? { id: "slow", ...slowRequest() } : { id: `fast-${index}`, ...order },
  );
  const started = Date.now();
  const results = await batch(items, "batch-slow-item");
  expect(Date.now() - started).toBeLessThan(3000);
  expect(results.map((result) => result.id)).toEqual(items.map((item) => item.id));
  expect(results[5]).toEqual({
    id: "slow",
    status: 503,
    problem: { type: "about:blank", title: "the evaluation took longer than 300 ms", status: 503 },
  });
  for (const [index, result] of results.entries())
    if (index !== 5) expect(`${result.id} ${result.status} ${result.result?.decision}`).toBe(`${result.id} 200 allow`);
  await suite.server.waitForLog((line) => line.msg === "evaluation timed out; its worker is replaced");
  const line = await suite.server.waitForLog(
    (entry) => entry.msg === "request" && entry.requestId === "batch-slow-item",
  );
  expect(line).toMatchObject({ status: 200, items: 40, decisions: { allow: 39, deny: 0 }, errors: 1 });
});

test("two slow items in one batch, on both workers at once: each is 503, the rest are answered, and the next batch is served", async () => {
  const items = [order, slowRequest(), order, slowRequest(), ...Array.from({ length: 10 }, () => order)];
  const statuses = (await batch(items, "batch-two-slow")).map((result) => result.status);
  expect(statuses).toEqual(items.map((item) => (item === order ? 200 : 503)));
  const next = await batch([order, order], "batch-after-slow");
  expect(next.map((result) => result.status)).toEqual([200, 200]);
});
