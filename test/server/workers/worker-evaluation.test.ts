import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createServer } from "../../../src/index.ts";
import { currencyRuleset } from "../../support/currency-ruleset.ts";
import { goldenJsonFiles } from "../../support/golden-files.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { serverForSuite } from "../../support/server-for-suite.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../../support/server-process.ts";
import { slowBundle, slowRequest } from "../../support/slow-bundle.ts";

/** RULE_SERVER_WORKERS and RULE_EVALUATION_TIMEOUT_MS against real processes. */
const auth = { Authorization: `Bearer ${TOKEN}` };
const post = (server: ServerProcess, body: unknown): Promise<Response> =>
  fetch(`${server.url}/evaluations`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("results are byte for byte those of the event loop", () => {
  interface EvaluationFile {
    bundle?: { id: string };
    cases: { name: string; channel?: string; request: unknown }[];
  }
  const files = goldenJsonFiles("evaluations")
    .map((file) => file.content as EvaluationFile)
    .filter((file) => file.bundle !== undefined);
  const bundles = new Map<string, EvaluationFile>();
  for (const file of files) if (!bundles.has(file.bundle!.id)) bundles.set(file.bundle!.id, file);
  const rules = rulesDirectory();
  let inline: ServerProcess;
  let workers: ServerProcess;

  beforeAll(async () => {
    for (const [id, file] of bundles) rules.write(`${id}.bundle.json`, JSON.stringify(file.bundle));
    [inline, workers] = await Promise.all([
      startServer(serverEnvironment(rules.path)),
      startServer(serverEnvironment(rules.path, { RULE_SERVER_WORKERS: "2" })),
    ]);
  });
  afterAll(async () => {
    await Promise.all([inline.kill(), workers.kill()]);
    rules.remove();
  });

  test("every golden evaluation case gives the same status and bytes with 0 and with 2 workers", async () => {
    let compared = 0;
    for (const [id, file] of bundles) {
      for (const c of file.cases) {
        const body =
          typeof c.request === "object" && c.request !== null && !Array.isArray(c.request)
            ? { ...c.request, ruleset: id, channel: c.channel ?? null }
            : c.request;
        const [a, b] = await Promise.all([post(inline, body), post(workers, body)]);
        expect(`${c.name}: ${b.status} ${await b.text()}`).toBe(`${c.name}: ${a.status} ${await a.text()}`);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(200);
  });

  test("refused bodies get the same status, type and bytes with 0 and with 2 workers, whichever check refuses them", async () => {
    const [id] = bundles.keys();
    const deep = `${"[".repeat(65)}${"]".repeat(65)}`;
    const refused = [
      "{not json",
      `{"ruleset":"${id}","entity":"E","operation":"create","data":{"n":1e999}}`,
      "[1,2]",
      `{"entity":"E","operation":"create"}`,
      `{"ruleset":"${id}","version":3,"entity":"E","operation":"create"}`,
      `{"ruleset":"${id}","channel":"browser","entity":"E","operation":"create"}`,
      `{"ruleset":"${id}","entity":"E","operation":"create","data":{"deep":${deep}}}`,
      `{"ruleset":"${id}","operation":"create"}`,
      `{"ruleset":"no.such.ruleset","entity":"E","operation":"create"}`,
      `{"ruleset":"${id}","version":"0.0.0-not-served","entity":"E","operation":"create"}`,
    ];
    for (const body of refused) {
      const send = (server: ServerProcess) =>
        fetch(`${server.url}/evaluations`, {
          method: "POST",
          headers: { ...auth, "Content-Type": "application/json" },
          body,
        });
      const [a, b] = await Promise.all([send(inline), send(workers)]);
      expect(a.status === 400 || a.status === 404).toBe(true);
      expect(`${b.status} ${b.headers.get("content-type")} ${await b.text()}`).toBe(
        `${a.status} ${a.headers.get("content-type")} ${await a.text()}`,
      );
    }
  });

  test("with workers, an evaluation's log line still names the ruleset and the decision, and a 404's names the ruleset", async () => {
    const [id, file] = [...bundles][0]!;
    const request = { ...(file.cases[0]!.request as object), ruleset: id };
    const answered = (await (await post(workers, request)).json()) as { decision: string };
    const evaluated = await workers.waitForLog(
      (line) =>
        line.msg === "request" && line.status === 200 && line.ruleset === id && line.decision === answered.decision,
    );
    expect(evaluated).toMatchObject({ method: "POST", path: "/evaluations" });
    expect((await post(workers, { ...request, version: "0.0.0-not-served" })).status).toBe(404);
    const missing = await workers.waitForLog(
      (line) => line.msg === "request" && line.status === 404 && line.ruleset === id,
    );
    expect(missing).toMatchObject({ method: "POST", path: "/evaluations" });
    expect(missing.decision).toBeUndefined();
  });
});

/**
 * One worker and a 40 ms timeout, shorter than starting RE2 takes (an alternation is outside the
 * linear subset: only RE2 matches it on the server).
 */
const ONE_WORKER_UNDER_SHORT_TIMEOUT = { RULE_SERVER_WORKERS: "1", RULE_EVALUATION_TIMEOUT_MS: "40" };

const CURRENCY_RULESET = currencyRuleset("test.currency", "Order", "./order.schema.json");

/** The status and the finding codes of a currency evaluation. */
async function currencyCodes(server: ServerProcess, currency: string): Promise<string> {
  const response = await post(server, {
    ruleset: "test.currency",
    entity: "Order",
    operation: "create",
    data: { currency },
  });
  return `${response.status} ${((await response.json()) as { findings?: { code: string }[] }).findings?.map((finding) => finding.code).join(",")}`;
}

describe("a worker takes requests only once it has loaded the rules and started RE2", () => {
  const suite = serverForSuite(ONE_WORKER_UNDER_SHORT_TIMEOUT, {
    "currency.ruleset.yaml": CURRENCY_RULESET,
    "slow.bundle.json": slowBundle(),
  });

  test("the first requests that need RE2 are answered within a 40 ms timeout", async () => {
    expect(await currencyCodes(suite.server, "GBP")).toBe("200 ");
    expect(await currencyCodes(suite.server, "CHF")).toBe("200 CUR-001");
  });

  test("so is the first request on the worker that replaces one that timed out", async () => {
    expect((await post(suite.server, slowRequest())).status).toBe(503);
    expect(await currencyCodes(suite.server, "USD")).toBe("200 ");
    expect(await currencyCodes(suite.server, "EURO")).toBe("200 CUR-001");
  });
});

describe("a reload takes effect once every worker has loaded the new rules", () => {
  const suite = serverForSuite(ONE_WORKER_UNDER_SHORT_TIMEOUT);

  test("rules that first need RE2, added by a reload, are answered within a 40 ms timeout", async () => {
    suite.rules.write("currency.ruleset.yaml", CURRENCY_RULESET);
    suite.server.signal("SIGHUP");
    await suite.server.waitForLog((line) => line.msg === "rules reloaded");
    expect(await currencyCodes(suite.server, "CHF")).toBe("200 CUR-001");
  });
});

describe("timeouts and dead workers", () => {
  const suite = serverForSuite(
    { RULE_SERVER_WORKERS: "2", RULE_EVALUATION_TIMEOUT_MS: "300" },
    { "slow.bundle.json": slowBundle() },
  );
  const order = {
    ruleset: "shop.orders.order",
    entity: "Order",
    operation: "create",
    data: { quantity: 3, unitPrice: 0.1 },
  };

  test("a deliberately slow rule is answered 503 within the timeout, and the next request is served", async () => {
    const started = Date.now();
    const response = await post(suite.server, slowRequest());
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(Date.now() - started).toBeLessThan(2000);
    expect((await post(suite.server, order)).status).toBe(200);
    await suite.server.waitForLog((line) => line.msg === "evaluation timed out; its worker is replaced");
  });

  test("under load, timeouts replace only ready workers: the process survives and nothing queued is lost", async () => {
    const requests = Array.from({ length: 60 }, (_, i) => (i % 6 === 0 ? slowRequest() : order));
    const statuses = await Promise.all(requests.map(async (body) => (await post(suite.server, body)).status));
    statuses.forEach((status, i) => expect(status).toBe(i % 6 === 0 ? 503 : 200));
    expect((await fetch(`${suite.server.url}/healthz`)).status).toBe(200);
    expect((await post(suite.server, order)).status).toBe(200);
  });
});

describe("reload while evaluations are in flight", () => {
  test("none is lost, and each reports the checksum of the snapshot that answered it", async () => {
    const rules = rulesDirectory();
    const server = await startServer(serverEnvironment(rules.path, { RULE_SERVER_WORKERS: "2" }));
    try {
      const checksum = async (): Promise<string> =>
        (
          (await (await fetch(`${server.url}/rulesets`)).json()) as { rulesets: { id: string; checksum: string }[] }
        ).rulesets.find((r) => r.id === "shop.orders.order")!.checksum;
      const before = await checksum();
      const shop = await Bun.file(join(rules.path, "shop-order.ruleset.yaml")).text();
      rules.write("shop-order.ruleset.yaml", shop.replace("default: 100", "default: 160"));
      const order = {
        ruleset: "shop.orders.order",
        entity: "Order",
        operation: "create",
        data: { quantity: 150, unitPrice: 1, customer: { email: "a@b.c" } },
      };
      const inFlight = Array.from({ length: 300 }, async (_, i) => {
        if (i === 100) server.signal("SIGHUP");
        const response = await post(server, order);
        return { status: response.status, result: (await response.json()) as { checksum: string; decision: string } };
      });
      const answers = await Promise.all(inFlight);
      await server.waitForLog((line) => line.msg === "rules reloaded");
      const after = await checksum();
      expect(after).not.toBe(before);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        // The old rules deny 150 items, the new ones allow them: decision and checksum must agree.
        expect(
          answer.result.checksum === before ? "deny" : answer.result.checksum === after ? "allow" : "unknown checksum",
        ).toBe(answer.result.decision);
      }
      const late = (await (await post(server, order)).json()) as { checksum: string };
      expect(late.checksum).toBe(after);
    } finally {
      await server.kill();
      rules.remove();
    }
  });
});

describe("drain with workers", () => {
  test("in-flight evaluations finish, then the workers end and the process exits 0", async () => {
    const rules = rulesDirectory({ "slow.bundle.json": slowBundle() });
    const server = await startServer(
      serverEnvironment(rules.path, {
        RULE_SERVER_WORKERS: "2",
        RULE_EVALUATION_TIMEOUT_MS: "60000",
        DRAIN_SECONDS: "0",
      }),
    );
    try {
      const inFlight = post(server, slowRequest("shop.slow", 6000));
      await Bun.sleep(100);
      server.signal("SIGTERM");
      expect((await inFlight).status).toBe(200);
      expect(await server.exited).toBe(0);
    } finally {
      await server.kill();
      rules.remove();
    }
  });
});

describe("custom operators in workers (embedding)", () => {
  const operatorsModule = join(PROJECT_ROOT, "test", "support", "operator-modules", "test-operators.ts");
  const rules = rulesDirectory({ "slow.bundle.json": slowBundle() });
  afterAll(() => rules.remove());

  test("functions alone cannot reach workers: operatorsModule is required", () => {
    expect(() =>
      createServer({ rulesDir: rules.path, token: "t", workers: 2, operators: { "x-die": () => true } }),
    ).toThrow("operatorsModule");
  });

  test("operators come from the module every worker imports; a worker that dies is answered 503 and replaced", async () => {
    const server = createServer({
      rulesDir: rules.path,
      port: 0,
      token: "t",
      workers: 2,
      operatorsModule,
      log: () => undefined,
    });
    const { port } = await server.listen();
    const call = (body: unknown): Promise<Response> =>
      fetch(`http://127.0.0.1:${port}/evaluations`, {
        method: "POST",
        headers: { Authorization: "Bearer t", "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    try {
      const dying = await call({ ruleset: "shop.slow", entity: "Order", operation: "die", data: {} });
      expect(dying.status).toBe(503);
      for (let i = 0; i < 6; i++)
        expect(
          (
            await call({
              ruleset: "shop.slow",
              entity: "Order",
              operation: "create",
              data: { quantity: 1, unitPrice: 1 },
            })
          ).status,
        ).toBe(200);
    } finally {
      await server.stop();
    }
  });
});

describe("jobs sent ahead to a worker", () => {
  const operatorsModule = join(PROJECT_ROOT, "test", "support", "operator-modules", "test-operators.ts");
  const rules = rulesDirectory({ "slow.bundle.json": slowBundle() });
  afterAll(() => rules.remove());
  const order = { ruleset: "shop.slow", entity: "Order", operation: "create", data: { quantity: 1, unitPrice: 1 } };

  // One worker, so the requests sent with the first one all wait behind it on the same thread.
  async function oneWorkerServer(
    timeoutMs: number,
  ): Promise<{ call: (body: unknown) => Promise<number>; stop: () => Promise<void> }> {
    const server = createServer({
      rulesDir: rules.path,
      port: 0,
      token: "t",
      workers: 1,
      evaluationTimeoutMs: timeoutMs,
      operatorsModule,
      log: () => undefined,
    });
    const { port } = await server.listen();
    const call = async (body: unknown): Promise<number> =>
      (
        await fetch(`http://127.0.0.1:${port}/evaluations`, {
          method: "POST",
          headers: { Authorization: "Bearer t", "Content-Type": "application/json" },
          body: JSON.stringify(body),
        })
      ).status;
    return { call, stop: () => server.stop() };
  }

  test("reloads one at a time: a request sent while two reloads wait for a busy worker is answered on the served rules", async () => {
    const server = createServer({
      rulesDir: rules.path,
      port: 0,
      token: "t",
      workers: 1,
      evaluationTimeoutMs: 60000,
      operatorsModule,
      log: () => undefined,
    });
    const { port } = await server.listen();
    const call = async (body: unknown): Promise<number> =>
      (
        await fetch(`http://127.0.0.1:${port}/evaluations`, {
          method: "POST",
          headers: { Authorization: "Bearer t", "Content-Type": "application/json" },
          body: JSON.stringify(body),
        })
      ).status;
    try {
      // The worker is busy, so neither reload can take effect until it is free; the request after
      // them still names the snapshot being served, which the worker must still hold then.
      const slow = call(slowRequest("shop.slow", 10000));
      await Bun.sleep(200);
      const reloads = [server.reload(), server.reload()];
      await Bun.sleep(100);
      const during = call(order);
      expect(await Promise.all([slow, during])).toEqual([200, 200]);
      expect((await Promise.all(reloads)).map((outcome) => outcome.reloaded)).toEqual([true, true]);
      expect(await call(order)).toBe(200);
    } finally {
      await server.stop();
    }
  });

  test("those waiting behind an evaluation that times out never ran: they are evaluated by the replacement", async () => {
    const { call, stop } = await oneWorkerServer(300);
    try {
      const statuses = await Promise.all([call(slowRequest()), ...Array.from({ length: 12 }, () => call(order))]);
      expect(statuses).toEqual([503, ...Array.from({ length: 12 }, () => 200)]);
    } finally {
      await stop();
    }
  });

  test("those waiting behind an evaluation whose worker dies are evaluated by the replacement", async () => {
    const { call, stop } = await oneWorkerServer(5000);
    try {
      const statuses = await Promise.all([
        call({ ...order, operation: "die" }),
        ...Array.from({ length: 12 }, () => call(order)),
      ]);
      expect(statuses).toEqual([503, ...Array.from({ length: 12 }, () => 200)]);
    } finally {
      await stop();
    }
  });

  test("the timeout counts from when an evaluation starts, not from when it was queued", async () => {
    // Measure a few evaluations first. The timeout is several times the slowest of them, so one
    // evaluation never reaches it however noisy the machine; the queue is long enough, counted
    // with the fastest, that the last request waits well past the timeout before it starts.
    const slow = slowRequest("shop.slow", 3000);
    const probe = await oneWorkerServer(60_000);
    const durations: number[] = [];
    try {
      await probe.call(slow);
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        expect(await probe.call(slow)).toBe(200);
        durations.push(Math.max(performance.now() - started, 1));
      }
    } finally {
      await probe.stop();
    }
    const timeoutMs = Math.max(500, Math.ceil(Math.max(...durations) * 5));
    const count = Math.min(400, Math.ceil((2 * timeoutMs) / Math.min(...durations)) + 1);
    const { call, stop } = await oneWorkerServer(timeoutMs);
    try {
      const started = performance.now();
      const statuses = await Promise.all(Array.from({ length: count }, () => call(slow)));
      expect(statuses).toEqual(Array.from({ length: count }, () => 200));
      // The last request was queued for longer than the timeout, so the test shows what it says.
      expect(performance.now() - started).toBeGreaterThan(timeoutMs);
    } finally {
      await stop();
    }
  });
});
