import { afterAll, expect, test } from "bun:test";
import { startOtlpReceiver } from "../../support/otlp-receiver.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../../support/server-process.ts";

/**
 * A collector that refuses or hangs never slows or fails a request: spans wait in a bounded queue,
 * what cannot be sent is dropped and counted, one warn line says the collector is failing and one
 * info line that it answers again.
 */
const rules = rulesDirectory();
afterAll(() => rules.remove());

const body = JSON.stringify({
  ruleset: "shop.orders.order",
  entity: "Order",
  operation: "create",
  data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
  actor: { id: "u1", roles: ["clerk"] },
});
async function evaluations(server: ServerProcess, count: number, parallel = 16): Promise<number[]> {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next++ < count) {
        const answer = await fetch(`${server.url}/evaluations`, {
          method: "POST",
          headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
          body,
        });
        await answer.arrayBuffer();
        statuses.push(answer.status);
      }
    }),
  );
  return statuses;
}
async function metric(server: ServerProcess, name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
  const line = text.split("\n").find((l) => l.startsWith(name));
  return line === undefined ? 0 : Number(line.split(" ").at(-1));
}
const lines = (server: ServerProcess, msg: string) => server.logs().filter((line) => line.msg === msg);

test("a collector that hangs: every request answered, the queue bounded, the spans dropped and counted, memory flat", async () => {
  const receiver = startOtlpReceiver({ answer: "hang" });
  const server = await startServer(
    serverEnvironment(rules.path, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: "20",
      OTEL_BSP_MAX_QUEUE_SIZE: "100",
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "50",
      OTEL_EXPORTER_OTLP_TIMEOUT: "300",
    }),
  );
  try {
    expect((await evaluations(server, 500)).every((status) => status === 200)).toBe(true);
    const settled = await metric(server, "process_resident_memory_bytes");
    const started = performance.now();
    const statuses = await evaluations(server, 3000);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(await metric(server, 'rule_server_trace_spans_dropped_total{reason="queue_full"}')).toBeGreaterThan(1000);
    expect(await metric(server, "rule_server_trace_spans_exported_total")).toBe(0);
    // 3,000 spans held would be megabytes; a bounded queue holds 100.
    expect((await metric(server, "process_resident_memory_bytes")) - settled).toBeLessThan(40 * 1024 * 1024);
    await server.waitForLog(
      (line) => line.msg === "spans cannot be exported; they are dropped until the collector answers",
    );
    expect(lines(server, "spans cannot be exported; they are dropped until the collector answers")).toHaveLength(1);
  } finally {
    await server.kill();
    await receiver.stop();
  }
});

test("a collector that answers 503, then comes back: said once each way, and spans flow again", async () => {
  const receiver = startOtlpReceiver({ answer: "unavailable" });
  const server = await startServer(
    serverEnvironment(rules.path, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: "20" }),
  );
  try {
    for (let round = 0; round < 3; round++) {
      expect((await evaluations(server, 20, 4)).every((status) => status === 200)).toBe(true);
      await Bun.sleep(60);
    }
    const failing = await server.waitForLog(
      (line) => line.msg === "spans cannot be exported; they are dropped until the collector answers",
    );
    expect(failing).toMatchObject({ level: "warn", reason: "the collector answered 503" });
    expect(lines(server, failing.msg as string)).toHaveLength(1);
    expect(await metric(server, 'rule_server_trace_spans_dropped_total{reason="export_failed"}')).toBeGreaterThan(0);
    receiver.answer("ok");
    await evaluations(server, 5, 1);
    await receiver.waitForSpans(1);
    expect((await server.waitForLog((line) => line.msg === "spans are exported again")).level).toBe("info");
  } finally {
    await server.kill();
    await receiver.stop();
  }
});

test("the drain waits for a collector that hangs no longer than one export's deadline", async () => {
  const receiver = startOtlpReceiver({ answer: "hang" });
  const server = await startServer(
    serverEnvironment(rules.path, {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: "60000",
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "5",
      OTEL_EXPORTER_OTLP_TIMEOUT: "500",
    }),
  );
  try {
    // Several batches queued: each would wait its own deadline without the drain's limit.
    expect((await evaluations(server, 40, 4)).every((status) => status === 200)).toBe(true);
    const signalled = performance.now();
    server.signal("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(3000);
  } finally {
    await server.kill();
    await receiver.stop();
  }
});
