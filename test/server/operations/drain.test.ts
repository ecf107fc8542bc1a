import { expect, test } from "bun:test";
import { expectNoReadRequestLost, keepAliveClient, type Outcome } from "../../support/keep-alive-client.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../../support/server-process.ts";
import { slowBundle, slowRequest } from "../../support/slow-bundle.ts";

/** The drain seen by keep-alive clients: `Connection: close` from its first moment, and no request the server read is lost. */

test("from the first moment of the drain, answers carry Connection: close", async () => {
  const rules = rulesDirectory();
  const server = await startServer(serverEnvironment(rules.path, { DRAIN_SECONDS: "2" }));
  try {
    expect((await fetch(`${server.url}/rulesets`)).headers.get("connection")).not.toBe("close");
    server.signal("SIGTERM");
    await server.waitForLog((line) => line.msg === "draining");
    for (const path of ["/rulesets", "/healthz", "/readyz", "/nope"])
      expect((await fetch(`${server.url}${path}`)).headers.get("connection"), path).toBe("close");
    expect(await server.exited).toBe(0);
  } finally {
    await server.kill();
    rules.remove();
  }
});

test("a drain under keep-alive load, with a slow evaluation in flight on a worker, loses no request the server read", async () => {
  const rules = rulesDirectory({ "shop.slow.bundle.json": slowBundle() });
  const server: ServerProcess = await startServer(
    serverEnvironment(rules.path, {
      DRAIN_SECONDS: "1",
      RULE_SERVER_WORKERS: "1",
      RULE_EVALUATION_TIMEOUT_MS: "60000",
    }),
  );
  try {
    const outcomes = new Map<string, Outcome>();
    const connections = { count: 0 };
    const clients = Array.from({ length: 8 }, (_, index) =>
      keepAliveClient(server.port, `c${index}`, outcomes, connections),
    );
    await Bun.sleep(200);
    server.signal("SIGTERM");
    await server.waitForLog((line) => line.msg === "draining");
    // Sent shortly before the drain ends, still evaluating when the server stops listening.
    await Bun.sleep(700);
    const slowSent = Date.now();
    const slow = fetch(`${server.url}/evaluations`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", "X-Request-Id": "slow" },
      body: JSON.stringify(slowRequest("shop.slow", 6000)),
    });
    const slowResponse = await slow;
    expect(slowResponse.status).toBe(200);
    expect(((await slowResponse.json()) as { decision: string }).decision).toBeDefined();
    expect(slowResponse.headers.get("connection")).toBe("close");
    expect(Date.now() - slowSent).toBeGreaterThan(100);
    await Promise.all(clients);
    expect(await server.exited).toBe(0);

    // Every request the server read got its whole answer; Connection: close made the clients reconnect.
    expectNoReadRequestLost(server.logs(), outcomes, connections);
  } finally {
    await server.kill();
    rules.remove();
  }
}, 30000);
