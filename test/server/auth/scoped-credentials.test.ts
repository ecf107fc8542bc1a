import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertConformsToOpenApi } from "../../support/openapi-conformance.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";
import {
  type ServerProcess,
  serverEnvironment,
  startExpectingFailure,
  startServer,
  TOKEN,
} from "../../support/server-process.ts";
import { ALLOWED_ORDER } from "../../support/allowed-order.ts";

/**
 * RULE_SERVER_CREDENTIALS with a real server: each route asks for its scope, callers are named in
 * log lines, records and the refused metrics, and the file is read again on SIGHUP.
 */
const CHECKOUT = "checkout-token-0123456789";
const AUDITOR = "auditor-token-0123456789";
const PROMETHEUS = "prometheus-token-0123456789";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const scratch = mkdtempSync(join(tmpdir(), "rule-server-credentials-"));
const credentialsFile = join(scratch, "credentials.yaml");
const rules = rulesDirectory();
function writeCredentials(checkoutTokens: readonly string[] = [CHECKOUT]): void {
  const lines = ["credentials:"];
  checkoutTokens.forEach((token, index) =>
    lines.push(
      `  - name: checkout${index === 0 ? "" : `-${index + 1}`}`,
      `    token: ${token}`,
      "    scopes: [evaluate]",
    ),
  );
  lines.push(
    "  - name: auditor",
    `    sha256: ${sha256(AUDITOR)}`,
    "    scopes: [read]",
    "  - name: prometheus",
    `    sha256: ${sha256(PROMETHEUS).toUpperCase()}`,
    "    scopes: [operate]",
  );
  writeFileSync(credentialsFile, `${lines.join("\n")}\n`);
}

const evaluate = (server: ServerProcess, token: string) =>
  fetch(`${server.url}/evaluations`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(ALLOWED_ORDER),
  });
const get = (server: ServerProcess, path: string, token?: string) =>
  fetch(`${server.url}${path}`, { headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } });

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rules.remove();
});

describe("scoped credentials", () => {
  let server: ServerProcess;
  const records = join(scratch, "records.jsonl");
  beforeAll(async () => {
    writeCredentials();
    server = await startServer(
      serverEnvironment(rules.path, {
        RULE_SERVER_TOKEN: undefined,
        RULE_SERVER_CREDENTIALS: credentialsFile,
        RULE_SERVER_DECISION_RECORDS: records,
      }),
    );
  });
  afterAll(() => server.kill());

  test("each route asks for its scope; a caller without it gets 403 naming the scope", async () => {
    expect((await evaluate(server, CHECKOUT)).status).toBe(200);
    const refused = await evaluate(server, AUDITOR);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="evaluate"');
    const problem = await refused.json();
    expect(problem).toMatchObject({ status: 403, scope: "evaluate" });
    assertConformsToOpenApi("POST", "/evaluations", 403, refused.headers.get("content-type"), problem);
    // Plans read no data but tell what the rules allow: the evaluate scope, like evaluations.
    const plan = (token: string) =>
      fetch(`${server.url}/plans`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ ruleset: "shop.orders.order", entity: "Order", operation: "update" }),
      });
    expect((await plan(CHECKOUT)).status).toBe(200);
    expect((await plan(AUDITOR)).status).toBe(403);
    const forbiddenBundle = await get(server, "/rulesets/shop.orders.order/bundle", CHECKOUT);
    assertConformsToOpenApi(
      "GET",
      "/rulesets/shop.orders.order/bundle",
      forbiddenBundle.status,
      forbiddenBundle.headers.get("content-type"),
      await forbiddenBundle.json(),
    );

    const manifest = "/rulesets/shop.orders.order/manifest?channel=server";
    expect((await get(server, manifest, AUDITOR)).status).toBe(200);
    expect((await get(server, manifest, CHECKOUT)).status).toBe(403);
    expect((await get(server, "/rulesets/shop.orders.order/bundle", AUDITOR)).status).toBe(200);
    expect((await get(server, "/rulesets/shop.orders.order/bundle", CHECKOUT)).status).toBe(403);
    expect((await get(server, "/rulesets/shop.orders.order/manifest", CHECKOUT)).status).toBe(200);

    // Metrics: operate, or evaluate as before; not read.
    expect((await get(server, "/metrics", PROMETHEUS)).status).toBe(200);
    expect((await get(server, "/metrics", CHECKOUT)).status).toBe(200);
    expect((await get(server, "/metrics", AUDITOR)).status).toBe(403);
  });

  test("no token and a wrong token get the same 401, and every refusal is counted by reason and caller", async () => {
    const missing = await evaluate(server, "");
    const wrong = await evaluate(server, `${CHECKOUT}x`);
    expect([missing.status, wrong.status]).toEqual([401, 401]);
    expect(await wrong.text()).toBe(await missing.text());
    const metrics = await (await get(server, "/metrics", PROMETHEUS)).text();
    expect(metrics).toMatch(/^rule_server_requests_refused_total\{reason="unauthenticated",caller=""\} [1-9]/m);
    expect(metrics).toMatch(/^rule_server_requests_refused_total\{reason="forbidden",caller="auditor"\} [1-9]/m);
    expect(metrics).toMatch(/^rule_server_requests_refused_total\{reason="forbidden",caller="checkout"\} [1-9]/m);
  });

  test("log lines and decision records name the caller, never a token", async () => {
    await evaluate(server, CHECKOUT);
    const line = await server.waitForLog(
      (entry) => entry.msg === "request" && entry.path === "/evaluations" && entry.caller === "checkout",
    );
    expect(line.status).toBe(200);
    const forbidden = await server.waitForLog((entry) => entry.msg === "request" && entry.status === 403);
    expect(forbidden.caller).toBe("auditor");
    const written = (await Bun.file(records).text())
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text));
    expect(written.length).toBeGreaterThan(0);
    expect(written.every((record) => record.caller === "checkout")).toBe(true);
    for (const secret of [CHECKOUT, AUDITOR, PROMETHEUS])
      expect(server.output() + (await Bun.file(records).text())).not.toContain(secret);
  });

  test("the problems of a refused reload in /readyz are for the operate scope", async () => {
    rules.write("broken.ruleset.yaml", "ruleCascade: '1.0'\nkind: RuleSet\n");
    server.signal("SIGHUP");
    await server.waitForLog((entry) => entry.msg === "reload refused, still serving the previous rules");
    const readiness = async (token?: string) =>
      ((await (await get(server, "/readyz", token)).json()) as { lastReload: { problems?: unknown } }).lastReload;
    expect((await readiness(PROMETHEUS)).problems).toBeDefined();
    expect((await readiness(CHECKOUT)).problems).toBeUndefined();
    expect((await readiness()).problems).toBeUndefined();
    rmSync(join(rules.path, "broken.ruleset.yaml"));
  });
});

describe("credentials read again on SIGHUP", () => {
  for (const processes of ["1", "2"])
    test(`a token added, then the old one removed, without a failed request between (RULE_SERVER_PROCESSES=${processes})`, async () => {
      const NEXT = "checkout-next-token-0123456789";
      writeCredentials([CHECKOUT]);
      const server = await startServer(
        serverEnvironment(rules.path, {
          RULE_SERVER_TOKEN: undefined,
          RULE_SERVER_CREDENTIALS: credentialsFile,
          RULE_SERVER_PROCESSES: processes,
        }),
      );
      try {
        // The client sends the old token until the new one works, then only the new one.
        let current = CHECKOUT;
        const failures: number[] = [];
        let running = true;
        let answeredWithNext = 0;
        const client = (async () => {
          while (running) {
            const token = current;
            const response = await evaluate(server, token);
            if (response.status !== 200) failures.push(response.status);
            else if (token === NEXT) answeredWithNext++;
          }
        })();
        const reloads = () => server.logs().filter((entry) => entry.msg === "credentials reloaded").length;
        writeCredentials([CHECKOUT, NEXT]);
        server.signal("SIGHUP");
        await server.waitForLog(() => reloads() === 1);
        // Every process has the new credentials once the rules reload the SIGHUP also asked for is done.
        await server.waitForLog((entry) => entry.msg === "rules reloaded");
        await Bun.sleep(100);
        expect((await evaluate(server, NEXT)).status).toBe(200);
        current = NEXT;
        // As a client would: the old token is removed once no request that carries it is in flight.
        while (answeredWithNext === 0) await Bun.sleep(5);
        writeCredentials([NEXT]);
        server.signal("SIGHUP");
        await server.waitForLog(() => reloads() === 2);
        await Bun.sleep(300);
        running = false;
        await client;
        expect(failures).toEqual([]);
        expect((await evaluate(server, CHECKOUT)).status).toBe(401);
        expect((await evaluate(server, NEXT)).status).toBe(200);

        // A file that does not load: the warning says what is wrong where; the credentials in use stay.
        writeFileSync(
          credentialsFile,
          "credentials:\n  - name: checkout\n    token: tiny-tok\n    scope: [evaluate]\n",
        );
        server.signal("SIGHUP");
        const warning = await server.waitForLog(
          (entry) => entry.msg === "the credentials file did not load; the credentials in use stay",
        );
        expect(warning).toMatchObject({ level: "warn", code: "CREDENTIALS_INVALID" });
        expect(JSON.stringify(warning.problems)).toContain("credentials[0]");
        expect(JSON.stringify(warning)).not.toContain("tiny-tok");
        expect((await evaluate(server, NEXT)).status).toBe(200);
      } finally {
        await server.kill();
      }
    }, 30_000);
});

describe("credentials at start-up", () => {
  test("a file that does not load stops the start, naming the place and never the token", async () => {
    writeFileSync(credentialsFile, "credentials:\n  - name: checkout\n    token: tiny-secret\n    scopes: [evaluat]\n");
    const failed = await startExpectingFailure(
      serverEnvironment(rules.path, { RULE_SERVER_TOKEN: undefined, RULE_SERVER_CREDENTIALS: credentialsFile }),
    );
    expect(failed.status).toBe(1);
    expect(failed.logs.at(-1)).toMatchObject({
      level: "fatal",
      msg: "the credentials cannot be used",
      code: "CREDENTIALS_INVALID",
    });
    const problems = JSON.stringify(failed.logs.at(-1)?.problems);
    expect(problems).toContain("credentials[0].scopes[0]");
    expect(problems).toContain("evaluate");
    expect(failed.output).not.toContain("tiny-secret");
  });

  test("RULE_SERVER_TOKEN beside the file is the credential default, with every scope", async () => {
    writeCredentials();
    const server = await startServer(serverEnvironment(rules.path, { RULE_SERVER_CREDENTIALS: credentialsFile }));
    try {
      expect((await evaluate(server, TOKEN)).status).toBe(200);
      expect((await get(server, "/rulesets/shop.orders.order/bundle", TOKEN)).status).toBe(200);
      expect((await get(server, "/metrics", TOKEN)).status).toBe(200);
      const line = await server.waitForLog((entry) => entry.msg === "request" && entry.caller === "default");
      expect(line.status).toBe(200);
    } finally {
      await server.kill();
    }
  });
});
