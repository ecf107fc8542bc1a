import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ALLOWED_ORDER } from "../../support/allowed-order.ts";
import { parseExposition } from "../../support/prometheus-exposition.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { serverEnvironment, startServer, type ServerProcess } from "../../support/server-process.ts";
import { allGone, alive, servingPids, supervisorPid, TWO_PROCESSES } from "../../support/server-processes.ts";
import { slowBundle, slowRequest } from "../../support/slow-bundle.ts";

/**
 * `/metrics` of real servers, every family filled by real traffic, passes Prometheus' own linter
 * (`promtool check metrics`, Debian's prometheus package: `make prometheus-tools`). promtool reads
 * the text format 0.0.4 from stdin, the version our Content-Type names.
 */
const CHECKOUT = "checkout-token-0123456789";
const AUDITOR = "auditor-token-0123456789";
const PROMETHEUS = "prometheus-token-0123456789";
const SHOP = "shop.orders.order";

const scratch = mkdtempSync(join(tmpdir(), "rule-server-promtool-"));
const credentialsFile = join(scratch, "credentials.yaml");
writeFileSync(
  credentialsFile,
  [
    "credentials:",
    "  - name: checkout",
    `    token: ${CHECKOUT}`,
    "    scopes: [evaluate]",
    "  - name: auditor",
    `    token: ${AUDITOR}`,
    "    scopes: [read]",
    "  - name: prometheus",
    `    token: ${PROMETHEUS}`,
    "    scopes: [operate]",
    "",
  ].join("\n"),
);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Every family the traffic below fills: all but pulls from RULES_SOURCE and spans of tracing, which
 * need a source and a collector; worker replacements only with workers.
 */
const FILLED_FAMILIES = [
  "rule_server_requests_total",
  "rule_server_requests_refused_total",
  "rule_server_request_duration_seconds_bucket",
  "rule_server_evaluations_total",
  "rule_server_evaluations_without_rules_total",
  "rule_server_request_warnings_total",
  "rule_server_reloads_total",
  "rule_server_decision_records_failed_total",
  "rule_server_rulesets",
  "rule_server_rules_loaded_timestamp_seconds",
  "rule_server_build_info",
  "rule_server_serving_process_restarts_total",
  "rule_server_serving_processes",
  "process_resident_memory_bytes",
  "process_cpu_seconds_total",
  "process_start_time_seconds",
];

/** The path to promtool; throws saying how to install it. */
function promtool(): string {
  const path = Bun.which("promtool");
  if (path === null)
    throw new Error("promtool was not found in PATH: `make prometheus-tools` installs Debian's prometheus package");
  return path;
}

/** `promtool check metrics` on an exposition: its exit status and everything it printed. */
async function lint(exposition: string): Promise<{ status: number; output: string }> {
  const child = Bun.spawn([promtool(), "check", "metrics"], {
    stdin: new TextEncoder().encode(exposition),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, status] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { status, output: `${stdout}${stderr}` };
}

const send = (server: ServerProcess, path: string, token: string, init: RequestInit = {}): Promise<Response> =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...init.headers },
  });
const evaluate = (server: ServerProcess, body: unknown, token = CHECKOUT): Promise<Response> =>
  send(server, "/evaluations", token, { method: "POST", body: JSON.stringify(body) });

/** Traffic that puts samples in every family a test can reach, with the status each answer must have. */
async function fillEveryFamily(
  server: ServerProcess,
  rules: ReturnType<typeof rulesDirectory>,
  withWorkers: boolean,
): Promise<void> {
  const statuses: [string, number, number][] = [];
  const expectStatus = async (what: string, answer: Promise<Response>, status: number): Promise<void> => {
    const response = await answer;
    await response.arrayBuffer();
    statuses.push([what, response.status, status]);
  };
  await expectStatus("allowed", evaluate(server, ALLOWED_ORDER), 200);
  await expectStatus("denied", evaluate(server, { ...ALLOWED_ORDER, data: { quantity: 150, unitPrice: 1 } }), 200);
  // An entity no rule targets: an evaluation without rules, and a warning (the shop has a schema).
  await expectStatus("misspelt entity", evaluate(server, { ...ALLOWED_ORDER, entity: "Ordr" }), 200);
  await expectStatus(
    "batch",
    send(server, "/evaluations/batch", CHECKOUT, {
      method: "POST",
      body: JSON.stringify({ items: [ALLOWED_ORDER, { ...ALLOWED_ORDER, ruleset: "nope" }] }),
    }),
    200,
  );
  await expectStatus("unknown ruleset", evaluate(server, { ...ALLOWED_ORDER, ruleset: "nope" }), 404);
  await expectStatus("no token", evaluate(server, ALLOWED_ORDER, ""), 401);
  await expectStatus("without the scope", evaluate(server, ALLOWED_ORDER, AUDITOR), 403);
  await expectStatus("unknown path", send(server, "/no/such/path", CHECKOUT), 404);
  for (const coding of ["br", "gzip", "identity"])
    await expectStatus(
      `manifest in ${coding}`,
      fetch(`${server.url}/rulesets/${SHOP}/manifest`, { headers: { "Accept-Encoding": coding } }),
      200,
    );
  await expectStatus("server manifest", send(server, `/rulesets/${SHOP}/manifest?channel=server`, AUDITOR), 200);
  if (withWorkers) await expectStatus("past the timeout", evaluate(server, slowRequest()), 503);
  expect(statuses.filter(([, got, wanted]) => got !== wanted)).toEqual([]);
  // Records go to /dev/full, where every write fails: each is counted as lost.
  await server.waitForLog((line) => String(line.msg).startsWith("decision records cannot be written"));

  const shop = await Bun.file(join(rules.path, "shop-order.ruleset.yaml")).text();
  rules.write("shop-order.ruleset.yaml", shop.replace("default: 100", "default: 200"));
  server.signal("SIGHUP");
  await server.waitForLog((line) => line.msg === "rules reloaded");
  rules.write("broken.ruleset.yaml", "ruleCascade: '1.0.0'\nkind: RuleSet\nunknownMember: x\n");
  server.signal("SIGHUP");
  await server.waitForLog((line) => String(line.msg).startsWith("reload refused"));
}

/** Scrapes with the operate credential, checks every reachable family has samples, and lints the text. */
async function expectLintFree(server: ServerProcess): Promise<void> {
  const response = await send(server, "/metrics", PROMETHEUS);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  const exposition = await response.text();
  const names = new Set(parseExposition(exposition).samples.map((sample) => sample.name));
  expect(FILLED_FAMILIES.filter((name) => !names.has(name))).toEqual([]);
  expect(await lint(exposition)).toEqual({ status: 0, output: "" });
}

describe("promtool check metrics", () => {
  test("reports a problem in what it prints, so that a clean exposition is one it says nothing about", async () => {
    const result = await lint("# HELP served Served.\n# TYPE served counter\nserved 1\n");
    expect(result.output).toContain('counter metrics should have "_total" suffix');
  });

  test("accepts the exposition of a lone server with a worker", async () => {
    const rules = rulesDirectory({ "shop.slow.bundle.json": slowBundle() });
    const server = await startServer(
      serverEnvironment(rules.path, {
        RULE_SERVER_TOKEN: undefined,
        RULE_SERVER_CREDENTIALS: credentialsFile,
        RULE_SERVER_DECISION_RECORDS: "/dev/full",
        RULE_SERVER_WORKERS: "1",
        RULE_EVALUATION_TIMEOUT_MS: "300",
      }),
    );
    try {
      await fillEveryFamily(server, rules, true);
      await expectLintFree(server);
      const exposition = parseExposition(await (await send(server, "/metrics", PROMETHEUS)).text());
      expect(exposition.value("rule_server_worker_replacements_total", { reason: "timeout" })).toBe(1);
    } finally {
      await server.kill();
      rules.remove();
    }
  });

  test("accepts the exposition the supervisor sums over two serving processes", async () => {
    const rules = rulesDirectory();
    const server = await startServer(
      serverEnvironment(rules.path, {
        ...TWO_PROCESSES,
        RULE_SERVER_TOKEN: undefined,
        RULE_SERVER_CREDENTIALS: credentialsFile,
        RULE_SERVER_DECISION_RECORDS: "/dev/full",
      }),
    );
    try {
      await server.waitForLog(() => servingPids(server).length >= 2);
      await fillEveryFamily(server, rules, false);
      await expectLintFree(server);
    } finally {
      const pids = [supervisorPid(server), ...servingPids(server)];
      await server.kill();
      // Killing the supervisor ends its serving processes too; never leave one behind.
      if (!(await allGone(pids))) for (const pid of pids.filter(alive)) process.kill(pid, "SIGKILL");
      rules.remove();
    }
  });
});
