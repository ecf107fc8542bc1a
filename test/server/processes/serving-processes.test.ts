import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { expectNoReadRequestLost, keepAliveClient, type Outcome } from "../../support/keep-alive-client.ts";
import { parseExposition } from "../../support/prometheus-exposition.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { MAIN, PROJECT_ROOT } from "../../support/run-cli.ts";
import {
  serverEnvironment,
  startExpectingFailure,
  startServer,
  TOKEN,
  type ServerProcess,
} from "../../support/server-process.ts";
import {
  allGone,
  alive,
  freePort,
  readiness,
  readinessOfEach,
  requestOnNewConnection,
  residentBytes,
  servingPids,
  supervisorPid,
  TWO_PROCESSES,
} from "../../support/server-processes.ts";

/**
 * RULE_SERVER_PROCESSES=2 with real processes: a supervisor and two serving processes sharing the
 * port. Which process answered is read from `/readyz`'s `pid`, and from the `pid` of log lines.
 */
const auth = { Authorization: `Bearer ${TOKEN}` };
const SHOP = "shop.orders.order";
/** Denied while the shop's maximum quantity is 100, allowed once it is raised above 130. */
const order130 = {
  ruleset: SHOP,
  entity: "Order",
  operation: "create",
  data: { quantity: 130, unitPrice: 1, customer: { email: "a@b.c" } },
};

async function withServer(
  env: Record<string, string>,
  scenario: (server: ServerProcess, rules: ReturnType<typeof rulesDirectory>) => Promise<void>,
): Promise<void> {
  const rules = rulesDirectory();
  const server = await startServer(serverEnvironment(rules.path, { ...TWO_PROCESSES, ...env }));
  try {
    // Serving processes' lines reach the log through the supervisor, a little after its own.
    await server.waitForLog(() => servingPids(server).length >= 2);
    await scenario(server, rules);
  } finally {
    const pids = [supervisorPid(server), ...servingPids(server)];
    await server.kill();
    // Killing the supervisor ends its serving processes too; never leave one behind.
    if (!(await allGone(pids))) for (const pid of pids.filter(alive)) process.kill(pid, "SIGKILL");
    rules.remove();
  }
}

/** Decisions of `count` evaluations, each on a connection of its own, with request ids `prefix-<n>`. */
async function decisions(port: number, body: unknown, count: number, prefix: string): Promise<string[]> {
  const answers: string[] = [];
  for (let index = 0; index < count; index++) {
    const answer = await requestOnNewConnection(
      port,
      "POST",
      "/evaluations",
      { ...auth, "Content-Type": "application/json", "X-Request-Id": `${prefix}-${index}` },
      JSON.stringify(body),
    );
    answers.push((JSON.parse(answer.text) as { decision: string }).decision);
  }
  return answers;
}

/** The exposition `/metrics` answers on a connection of its own, with the request id given. */
async function scrape(port: number, requestId = "scrape"): Promise<ReturnType<typeof parseExposition>> {
  const answer = await requestOnNewConnection(port, "GET", "/metrics", { ...auth, "X-Request-Id": requestId });
  expect(answer.status).toBe(200);
  return parseExposition(answer.text);
}

/** Which processes logged the `count` requests whose ids start with `prefix`, once all are logged. */
async function pidsOfRequests(server: ServerProcess, prefix: string, count: number): Promise<Set<number>> {
  const lines = (): Record<string, unknown>[] =>
    server.logs().filter((line) => line.msg === "request" && String(line.requestId).startsWith(prefix));
  await server.waitForLog(() => lines().length >= count);
  return new Set(lines().map((line) => line.pid as number));
}

for (const port of ["0", "fixed"]) {
  test(`on ${port === "0" ? "port 0" : "a fixed port"}, two processes both answer: connections that close reach each; every log line names its process`, async () => {
    const fixed = port === "fixed" ? String(freePort()) : "0";
    await withServer({ PORT: fixed }, async (server) => {
      if (fixed !== "0") expect(server.port).toBe(Number(fixed));
      const supervisor = supervisorPid(server);
      const serving = servingPids(server);
      expect(serving.length).toBe(2);
      expect(new Set([supervisor, ...serving]).size).toBe(3);
      const answered = await readinessOfEach(server.port, serving);
      expect([...answered.keys()].sort()).toEqual([...serving].sort());
      for (const answer of answered.values()) expect(answer.status).toBe("ready");
      // One `listening` line for the whole server, once both serve; the serving processes say so on their own lines.
      const listening = server.logs().filter((line) => line.msg === "listening");
      expect(listening.length).toBe(1);
      expect(listening[0]!.processes).toBe(2);
      expect(listening[0]!.port).toBe(server.port);
      await server.waitForLog((line) => line.msg === "request" && line.path === "/readyz", 50).catch(() => undefined);
      for (const line of server.logs()) expect(typeof line.pid, JSON.stringify(line)).toBe("number");
    });
  });
}

test("SIGHUP reloads every serving process, with one `rules reloaded` line; a refused reload changes none", async () => {
  await withServer({}, async (server, rules) => {
    const serving = servingPids(server);
    const before = await readinessOfEach(server.port, serving);
    expect((await decisions(server.port, order130, 12, "before")).every((decision) => decision === "deny")).toBe(true);

    rules.write(
      "shop-order.ruleset.yaml",
      readFileSync(join(rules.path, "shop-order.ruleset.yaml"), "utf8").replace("default: 100", "default: 140"),
    );
    server.signal("SIGHUP");
    await server.waitForLog((line) => line.msg === "rules reloaded");
    const reloaded = await readinessOfEach(server.port, serving, auth);
    expect(reloaded.size).toBe(2);
    const [first, second] = [...reloaded.values()];
    // The same rules, loaded at the same moment, and the same last reload in every process.
    expect(first!.loadedAt).toBe(second!.loadedAt);
    expect(first!.loadedAt > before.get(serving[0]!)!.loadedAt).toBe(true);
    expect(first!.lastReload).toEqual({ at: first!.loadedAt, trigger: "SIGHUP", outcome: "reloaded" });
    expect(second!.lastReload).toEqual(first!.lastReload!);
    expect((await decisions(server.port, order130, 12, "after")).every((decision) => decision === "allow")).toBe(true);
    expect((await pidsOfRequests(server, "after-", 12)).size).toBe(2);

    rules.write("broken.ruleset.yaml", "ruleCascade: '1.0.0'\n");
    server.signal("SIGHUP");
    await server.waitForLog((line) => String(line.msg).startsWith("reload refused"));
    const refused = await readinessOfEach(server.port, serving, auth);
    for (const answer of refused.values()) {
      expect(answer.loadedAt).toBe(first!.loadedAt);
      expect(answer.lastReload?.outcome).toBe("refused");
      expect(answer.lastReload?.at).toBe([...refused.values()][0]!.lastReload!.at);
    }
    expect((await decisions(server.port, order130, 12, "refused")).every((decision) => decision === "allow")).toBe(
      true,
    );
    // The supervisor decided each reload and said so once; no serving process loaded the files.
    await Bun.sleep(300);
    const said = server
      .logs()
      .filter((line) => line.msg === "rules reloaded" || String(line.msg).startsWith("reload refused"));
    expect(said.map((line) => [line.msg, line.pid])).toEqual([
      ["rules reloaded", supervisorPid(server)],
      ["reload refused, still serving the previous rules", supervisorPid(server)],
    ]);
  });
});

test("a drain under keep-alive load loses no request the server read; the supervisor exits 0 after the last serving process", async () => {
  await withServer({ DRAIN_SECONDS: "1" }, async (server) => {
    const serving = servingPids(server);
    const outcomes = new Map<string, Outcome>();
    const connections = { count: 0 };
    const clients = Array.from({ length: 8 }, (_, index) =>
      keepAliveClient(server.port, `c${index}`, outcomes, connections),
    );
    await Bun.sleep(300);
    server.signal("SIGTERM");
    await server.waitForLog((line) => line.msg === "draining");
    await Promise.all(clients);
    expect(await server.exited).toBe(0);
    expect(serving.some(alive)).toBe(false);

    const read = expectNoReadRequestLost(server.logs(), outcomes, connections);
    expect(new Set(read.map((line) => line.pid))).toEqual(new Set(serving));
    // Both serving processes drained, then the supervisor said it was done.
    const drained = server.logs().filter((line) => line.msg === "drained, stopped serving");
    expect(new Set(drained.map((line) => line.pid))).toEqual(new Set([...serving, supervisorPid(server)]));
  });
}, 30000);

test("a second signal during the drain cuts every serving process at once", async () => {
  await withServer({ DRAIN_SECONDS: "20" }, async (server) => {
    const serving = servingPids(server);
    server.signal("SIGTERM");
    await server.waitForLog((line) => line.msg === "draining" && line.pid === supervisorPid(server));
    const drainingSince = Date.now();
    server.signal("SIGINT");
    expect(await server.exited).toBe(0);
    expect(Date.now() - drainingSince).toBeLessThan(10_000);
    expect(await allGone(serving)).toBe(true);
    expect(
      server
        .logs()
        .filter((line) => line.msg === "stopped serving, requests in flight were cut")
        .map((line) => line.pid)
        .sort(),
    ).toEqual([...serving, supervisorPid(server)].sort());
  });
}, 30000);

test("kill -9 of a serving process: another is started, the port answers all the while, and the counters do not go down", async () => {
  await withServer({}, async (server) => {
    const [victim, survivor] = servingPids(server);
    for (let index = 0; index < 10; index++) await requestOnNewConnection(server.port, "GET", "/rulesets");
    const listed = { route: "/rulesets", method: "GET", status: "200" };
    expect((await scrape(server.port)).value("rule_server_requests_total", listed)).toBe(10);

    process.kill(victim!, "SIGKILL");
    expect(await allGone([victim!])).toBe(true);
    // From its death until its replacement listens, every request is answered by the survivor.
    const answeredBy: number[] = [];
    while (servingPids(server).length < 3) {
      const answer = await readiness(server.port);
      answeredBy.push(answer.pid);
      expect(answer.status).toBe("ready");
    }
    const replacement = servingPids(server)[2]!;
    expect(answeredBy.length).toBeGreaterThan(0);
    expect(answeredBy.filter((pid) => pid !== survivor && pid !== replacement)).toEqual([]);
    const warning = server.logs().find((line) => line.msg === "a serving process stopped; another is started")!;
    expect(warning).toMatchObject({ level: "warn", servingPid: victim, signal: "SIGKILL", pid: supervisorPid(server) });
    expect([...(await readinessOfEach(server.port, [survivor!, replacement])).keys()].sort()).toEqual(
      [survivor!, replacement].sort(),
    );

    const exposition = await scrape(server.port);
    expect(exposition.value("rule_server_serving_process_restarts_total")).toBe(1);
    expect(exposition.value("rule_server_serving_processes")).toBe(2);
    // What the killed process counted (up to the last scrape) stays in the sum.
    expect(exposition.value("rule_server_requests_total", listed)).toBe(10);
  });
}, 30000);

test("a second server on the same port fails to start, with two processes or one, before any process listens", async () => {
  const port = String(freePort());
  await withServer({ PORT: port }, async (server) => {
    const rules = rulesDirectory();
    try {
      for (const processes of ["2", "1"]) {
        const run = await startExpectingFailure(
          serverEnvironment(rules.path, { PORT: port, RULE_SERVER_PROCESSES: processes }),
        );
        expect(run.status).toBe(1);
        expect(run.logs.at(-1)!.level).toBe("fatal");
        expect(JSON.stringify(run.logs.at(-1))).toContain(port);
        expect(run.logs.some((line) => line.msg === "serving process listening" || line.msg === "listening")).toBe(
          false,
        );
      }
      // The first server still answers alone.
      expect((await readinessOfEach(server.port, servingPids(server))).size).toBe(2);
    } finally {
      rules.remove();
    }
  });
}, 30000);

test("SIGKILL of the supervisor leaves no serving process behind, and the port is free again", async () => {
  const port = String(freePort());
  await withServer({ PORT: port }, async (server) => {
    const serving = servingPids(server);
    process.kill(supervisorPid(server), "SIGKILL");
    expect(await allGone(serving, 5000)).toBe(true);
    const rules = rulesDirectory();
    const next = await startServer(serverEnvironment(rules.path, { PORT: port }));
    try {
      expect((await readiness(next.port)).status).toBe("ready");
    } finally {
      await next.kill();
      rules.remove();
    }
  });
}, 30000);

test("/metrics, whichever process answers, sums the counts of both, the supervisor's reloads and every process's memory", async () => {
  await withServer({}, async (server) => {
    const serving = servingPids(server);
    for (let index = 0; index < 20; index++)
      await requestOnNewConnection(server.port, "GET", "/rulesets", { "X-Request-Id": `count-${index}` });
    expect((await pidsOfRequests(server, "count-", 20)).size).toBe(2);
    server.signal("SIGHUP");
    await server.waitForLog((line) => line.msg === "rules reloaded");
    const scrapedBy = new Set<number>();
    for (let index = 0; index < 40 && scrapedBy.size < 2; index++) {
      const exposition = await scrape(server.port, `scrape-${index}`);
      const line = await server.waitForLog((entry) => entry.requestId === `scrape-${index}`);
      scrapedBy.add(line.pid as number);
      expect(exposition.value("rule_server_requests_total", { route: "/rulesets", method: "GET", status: "200" })).toBe(
        20,
      );
      expect(exposition.value("rule_server_reloads_total", { trigger: "SIGHUP", outcome: "reloaded" })).toBe(1);
      expect(exposition.value("rule_server_serving_processes")).toBe(2);
      expect(exposition.value("rule_server_rulesets")).toBe(4);
      const memory = [supervisorPid(server), ...serving].reduce((sum, pid) => sum + residentBytes(pid), 0);
      const reported = exposition.value("process_resident_memory_bytes");
      expect(reported).toBeGreaterThan(memory * 0.7);
      expect(reported).toBeLessThan(memory * 1.3);
    }
    expect([...scrapedBy].sort()).toEqual([...serving].sort());
  });
}, 30000);

test("serving processes that keep stopping right after they start make the supervisor stop with status 1", async () => {
  await withServer({}, async (server) => {
    const killed = new Set<number>();
    const ended = server.exited;
    let status: number | undefined;
    void ended.then((value) => (status = value));
    while (status === undefined) {
      for (const pid of servingPids(server)) {
        if (killed.has(pid)) continue;
        killed.add(pid);
        process.kill(pid, "SIGKILL");
      }
      await Bun.sleep(20);
    }
    expect(status).toBe(1);
    expect(server.logs().find((line) => line.level === "fatal")).toMatchObject({
      msg: "serving processes keep stopping right after they start; the server stops",
      pid: supervisorPid(server),
    });
    expect(server.logs().filter((line) => line.msg === "a serving process stopped; another is started").length).toBe(4);
    expect(await allGone(servingPids(server))).toBe(true);
  });
}, 30000);

describe("RULE_SERVER_PROCESSES=auto", () => {
  const taskset = Bun.which("taskset");
  test.skipIf(taskset === null)("under taskset -c 0 (one CPU allowed) serves with one process, itself", async () => {
    const rules = rulesDirectory();
    const child = Bun.spawn([taskset!, "-c", "0", process.execPath, MAIN], {
      cwd: PROJECT_ROOT,
      env: serverEnvironment(rules.path, { RULE_SERVER_PROCESSES: "auto" }),
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      let text = "";
      const decoder = new TextDecoder();
      for await (const chunk of child.stdout) {
        text += decoder.decode(chunk, { stream: true });
        if (text.includes('"msg":"listening"')) break;
      }
      const lines = text
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.find((line) => String(line.msg).startsWith("RULE_SERVER_PROCESSES=auto"))).toMatchObject({
        processes: 1,
        cpuAffinity: 1,
      });
      const listening = lines.find((line) => line.msg === "listening")!;
      expect(listening.processes).toBeUndefined();
      const answer = await readiness(listening.port as number);
      expect(answer.pid).toBe(child.pid);
      expect(lines.some((line) => line.msg === "serving process listening")).toBe(false);
    } finally {
      child.kill("SIGKILL");
      await child.exited;
      rmSync(rules.path, { recursive: true, force: true });
    }
  });
});
