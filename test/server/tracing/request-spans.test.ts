import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOtlpReceiver, type OtlpReceiver } from "../../support/otlp-receiver.ts";
import { OTLP_SPAN_KIND, OTLP_STATUS_CODE } from "../../support/otlp-trace-export.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../../support/server-process.ts";

/**
 * Tracing (DECISIONS.md): a real server exports a server span per request to a receiver the test
 * runs, in protobuf and in JSON, continuing an incoming `traceparent` with the attributes the
 * decision names; the log line and the decision record carry the span's ids, and the span lasts
 * the log line's `ms`; a sampler at 0 exports nothing; the drain sends what is queued.
 */
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";
const rules = rulesDirectory();
const scratch = mkdtempSync(join(tmpdir(), "request-spans-"));
afterAll(() => {
  rules.remove();
  rmSync(scratch, { recursive: true, force: true });
});

const ORDER = {
  ruleset: "shop.orders.order",
  entity: "Order",
  operation: "create",
  data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
  actor: { id: "u1", roles: ["clerk"] },
};
const evaluate = (server: ServerProcess, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/evaluations`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", ...headers },
    body: JSON.stringify(ORDER),
  });
function tracing(receiver: OtlpReceiver, extra: Record<string, string> = {}) {
  return serverEnvironment(rules.path, {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: "50",
    OTEL_SERVICE_NAME: "rules-test",
    ...extra,
  });
}

for (const protocol of ["http/protobuf", "http/json"] as const) {
  describe(`spans over ${protocol}`, () => {
    let receiver: OtlpReceiver;
    let server: ServerProcess;
    const records = join(scratch, `records-${protocol.replace("/", "-")}.jsonl`);
    beforeAll(async () => {
      receiver = startOtlpReceiver();
      server = await startServer(
        tracing(receiver, {
          OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
          OTEL_EXPORTER_OTLP_HEADERS: "x-collector-token=abc%20def",
          OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=test",
          RULE_SERVER_DECISION_RECORDS: records,
        }),
      );
    });
    afterAll(async () => {
      await server?.kill();
      await receiver?.stop();
    });

    test("a request continuing a trace is a server span under the caller's, with the decision's attributes", async () => {
      const answer = await evaluate(server, { traceparent: `00-${TRACE}-${PARENT}-01`, tracestate: "vendor=x" });
      expect(answer.status).toBe(200);
      const [span] = (await receiver.waitForSpans(1)).filter((s) => s.traceId === TRACE);
      expect(span).toMatchObject({
        traceId: TRACE,
        parentSpanId: PARENT,
        traceState: "vendor=x",
        name: "POST /evaluations",
        kind: OTLP_SPAN_KIND.server,
        status: { code: OTLP_STATUS_CODE.unset },
        attributes: {
          "http.request.method": "POST",
          "http.route": "/evaluations",
          "http.response.status_code": 200,
          "rule_server.ruleset": "shop.orders.order",
          "rule_server.ruleset.version": "1.0.0",
          "rule_server.decision": expect.any(String),
          "rule_server.caller": "default",
        },
      });
      expect(span!.endTimeUnixNano).toBeGreaterThanOrEqual(span!.startTimeUnixNano);
      expect(receiver.received()[0]!.resource).toMatchObject({
        "service.name": "rules-test",
        "deployment.environment": "test",
      });
      expect(receiver.headers()[0]!["x-collector-token"]).toBe("abc def");
      // The log line and the decision record name the same span.
      const line = await server.waitForLog((l) => l.msg === "request" && l.traceId === TRACE);
      expect(line.spanId).toBe(span!.spanId);
      // The span lasts what the log line says (its `ms` is rounded to hundredths).
      const lasted = Number(BigInt(span!.endTimeUnixNano) - BigInt(span!.startTimeUnixNano)) / 1e6;
      expect(Math.abs(lasted - (line.ms as number))).toBeLessThanOrEqual(0.0051);
      const record = readFileSync(records, "utf8")
        .trim()
        .split("\n")
        .map((text) => JSON.parse(text))
        .find((r) => r.traceId === TRACE);
      expect(record).toMatchObject({ traceId: TRACE, spanId: span!.spanId });
    });

    test("a request without a traceparent starts a trace; a route pattern, not the path, names the span", async () => {
      const before = receiver.spans().length;
      const manifest = await fetch(`${server.url}/rulesets/shop.orders.order/manifest?channel=client`);
      expect(manifest.status).toBe(200);
      const spans = await receiver.waitForSpans(before + 1);
      const span = spans.at(-1)!;
      expect(span.parentSpanId).toBeUndefined();
      expect(span.traceId).not.toBe(TRACE);
      expect(span.name).toBe("GET /rulesets/:id/manifest");
      expect(span.attributes["http.route"]).toBe("/rulesets/:id/manifest");
    });
  });
}

test("a caller that did not sample, or a sampler at 0, exports nothing; the drain sends what is queued", async () => {
  const receiver = startOtlpReceiver();
  const server = await startServer(tracing(receiver, { OTEL_BSP_SCHEDULE_DELAY: "60000" }));
  try {
    expect((await evaluate(server, { traceparent: `00-${TRACE}-${PARENT}-00` })).status).toBe(200);
    expect((await evaluate(server)).status).toBe(200);
    // Queued for a minute: the drain is what sends it.
    await Bun.sleep(200);
    expect(receiver.spans()).toHaveLength(0);
    server.signal("SIGTERM");
    expect(await server.exited).toBe(0);
    const spans = receiver.spans();
    expect(spans).toHaveLength(1);
    expect(spans[0]!.traceId).not.toBe(TRACE);
  } finally {
    await server.kill();
    await receiver.stop();
  }
  const silent = startOtlpReceiver();
  const never = await startServer(
    tracing(silent, { OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" }),
  );
  try {
    for (let i = 0; i < 5; i++) expect((await evaluate(never)).status).toBe(200);
    const line = await never.waitForLog((l) => l.msg === "request" && l.path === "/evaluations");
    expect(line.traceId).toMatch(/^[0-9a-f]{32}$/);
    never.signal("SIGTERM");
    await never.exited;
    expect(silent.spans()).toHaveLength(0);
  } finally {
    await never.kill();
    await silent.stop();
  }
});

test("child spans where they tell something: the evaluation on a worker, and a batch's items", async () => {
  const receiver = startOtlpReceiver();
  const server = await startServer(tracing(receiver, { RULE_SERVER_WORKERS: "1" }));
  try {
    expect((await evaluate(server, { traceparent: `00-${TRACE}-${PARENT}-01` })).status).toBe(200);
    const batch = await fetch(`${server.url}/evaluations/batch`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ items: [ORDER, ORDER, ORDER] }),
    });
    expect(batch.status).toBe(200);
    const spans = await receiver.waitForSpans(4);
    const server_ = spans.find((span) => span.traceId === TRACE && span.kind === OTLP_SPAN_KIND.server)!;
    const worker = spans.find((span) => span.name === "evaluate in a worker" && span.traceId === TRACE)!;
    expect(worker).toMatchObject({ kind: OTLP_SPAN_KIND.internal, parentSpanId: server_.spanId });
    expect(worker.startTimeUnixNano).toBeGreaterThanOrEqual(server_.startTimeUnixNano);
    expect(worker.endTimeUnixNano).toBeLessThanOrEqual(server_.endTimeUnixNano);
    const batchSpan = spans.find((span) => span.name === "POST /evaluations/batch")!;
    expect(spans.find((span) => span.name === "evaluate batch items")).toMatchObject({
      traceId: batchSpan.traceId,
      parentSpanId: batchSpan.spanId,
      attributes: { "rule_server.batch.items": 3 },
    });
  } finally {
    await server.kill();
    await receiver.stop();
  }
});

test("without tracing, the log line and the decision record carry the trace of the request's traceparent", async () => {
  const records = join(scratch, "records-untraced.jsonl");
  const server = await startServer(serverEnvironment(rules.path, { RULE_SERVER_DECISION_RECORDS: records }));
  try {
    expect((await evaluate(server, { traceparent: `00-${TRACE}-${PARENT}-01` })).status).toBe(200);
    const line = await server.waitForLog((l) => l.msg === "request" && l.path === "/evaluations");
    expect(line.traceId).toBe(TRACE);
    expect(line.spanId).toBeUndefined();
    server.signal("SIGTERM");
    await server.exited;
    const record = JSON.parse(readFileSync(records, "utf8").trim().split("\n")[0]!);
    expect(record.traceId).toBe(TRACE);
    expect(record.spanId).toBeUndefined();
  } finally {
    await server.kill();
  }
});

test("an answer of 500 or more marks the request's span failed", async () => {
  const receiver = startOtlpReceiver();
  // Records required and unwritable: every evaluation is answered 503.
  const server = await startServer(
    tracing(receiver, { RULE_SERVER_DECISION_RECORDS: "/dev/full", RULE_SERVER_DECISION_RECORDS_REQUIRED: "1" }),
  );
  try {
    expect((await evaluate(server)).status).toBe(200);
    await server.waitForLog((line) => String(line.msg).startsWith("decision records cannot be written"));
    expect((await evaluate(server)).status).toBe(503);
    const spans = await receiver.waitForSpans(2);
    const failed = spans.filter((span) => span.attributes["http.response.status_code"] === 503);
    expect(failed).toHaveLength(1);
    expect(failed[0]!.status).toEqual({ code: OTLP_STATUS_CODE.error, message: "answered 503" });
    expect(spans.find((span) => span.attributes["http.response.status_code"] === 200)!.status.code).toBe(
      OTLP_STATUS_CODE.unset,
    );
  } finally {
    await server.kill();
    await receiver.stop();
  }
});
