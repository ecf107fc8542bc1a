import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseExposition } from "../support/prometheus-exposition.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../support/server-process.ts";

/**
 * RULE_SERVER_SCHEMA_ENFORCEMENT against real processes serving the rules/ example, whose
 * Transfer entity has a schema (rules/payments.openapi.yaml): warn (the default), reject, off.
 */
const auth = { Authorization: `Bearer ${TOKEN}` };
const transfer = {
  ruleset: "acme.payments.transfers",
  entity: "Transfer",
  operation: "create",
  data: {
    id: "TRF-1",
    amount: 120,
    reference: "Invoice 7",
    debtor: { iban: "DE89370400440532013000", country: "DE" },
    beneficiary: { iban: "DE75512108001245126199", country: "DE" },
  },
  actor: { id: "c-1", roles: ["customer"] },
  ctx: { now: "2026-03-02T09:30:00Z" },
};
const misfits = {
  entity: { ...transfer, entity: "Transfre" },
  operation: { ...transfer, operation: "craete" },
  data: {
    ...transfer,
    data: { ...transfer.data, amount: undefined, amout: 120, purpose: "salry", executionDate: "2026-02-30" },
  },
};
const post = async (server: ServerProcess, body: unknown, query = ""): Promise<{ status: number; body: any }> => {
  const response = await fetch(`${server.url}/evaluations${query}`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
};

let rules: string;
const servers: Record<string, ServerProcess> = {};
beforeAll(async () => {
  rules = mkdtempSync(join(tmpdir(), "rule-server-enforcement-"));
  cpSync(join(PROJECT_ROOT, "rules"), rules, { recursive: true });
  const [warn, reject, off, workers] = await Promise.all([
    startServer(serverEnvironment(rules)),
    startServer(serverEnvironment(rules, { RULE_SERVER_SCHEMA_ENFORCEMENT: "reject" })),
    startServer(serverEnvironment(rules, { RULE_SERVER_SCHEMA_ENFORCEMENT: "off" })),
    startServer(serverEnvironment(rules, { RULE_SERVER_WORKERS: "1" })),
  ]);
  Object.assign(servers, { warn, reject, off, workers });
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.kill()));
  rmSync(rules, { recursive: true, force: true });
});

describe("warn (the default)", () => {
  test("a request that fits is answered exactly as with enforcement off: no warnings member", async () => {
    const [warned, plain] = await Promise.all([post(servers.warn!, transfer), post(servers.off!, transfer)]);
    expect(warned.status).toBe(200);
    expect(warned.body.warnings).toBeUndefined();
    expect(warned.body).toEqual(plain.body);
  });

  test("a misspelt entity and operation are evaluated as before and said, with the closest declared name", async () => {
    const entity = await post(servers.warn!, misfits.entity);
    expect(entity.status).toBe(200);
    expect(entity.body.decision).toBe("allow");
    expect(entity.body.warnings).toEqual([
      {
        code: "ENTITY_UNKNOWN",
        pointer: "/entity",
        message: 'the ruleset declares no entity "Transfre"',
        didYouMean: "Transfer",
      },
    ]);
    const operation = await post(servers.warn!, misfits.operation);
    expect(operation.body.warnings).toEqual([
      {
        code: "OPERATION_UNKNOWN",
        pointer: "/operation",
        message: 'no rule of Transfer names the operation "craete"',
        didYouMean: "create",
      },
    ]);
  });

  test("data the entity's schema refuses: each violation with its pointer into the request", async () => {
    const { status, body } = await post(servers.warn!, misfits.data);
    expect(status).toBe(200);
    const warnings = body.warnings as { code: string; pointer: string; didYouMean?: string }[];
    expect(warnings.every((warning) => warning.code === "DATA_INVALID")).toBe(true);
    expect(warnings).toContainEqual(expect.objectContaining({ pointer: "/data/amount", didYouMean: "amount" }));
    expect(warnings).toContainEqual(expect.objectContaining({ pointer: "/data/purpose", didYouMean: "salary" }));
    expect(warnings).toContainEqual(expect.objectContaining({ pointer: "/data/executionDate" }));
  });

  test("the log line counts the warnings and the metrics count them by ruleset and code", async () => {
    await post(servers.warn!, misfits.operation);
    const line = await servers.warn!.waitForLog((entry) => entry.msg === "request" && entry.operation === "craete");
    expect(line.warnings).toBe(1);
    const metrics = parseExposition(await (await fetch(`${servers.warn!.url}/metrics`, { headers: auth })).text());
    const samples = metrics.samples.filter((sample) => sample.name === "rule_server_request_warnings_total");
    expect(samples).toContainEqual(
      expect.objectContaining({ labels: { ruleset: "acme.payments.transfers", code: "OPERATION_UNKNOWN" } }),
    );
    expect(samples.find((sample) => sample.labels.code === "DATA_INVALID")!.value).toBeGreaterThanOrEqual(3);
  });

  test("with workers the answer is the same, byte for byte", async () => {
    for (const body of [transfer, misfits.entity, misfits.data]) {
      const [pooled, inline] = await Promise.all([post(servers.workers!, body), post(servers.warn!, body)]);
      expect(JSON.stringify(pooled.body)).toBe(JSON.stringify(inline.body));
    }
  });
});

describe("reject", () => {
  test("a request that does not fit is answered 422 with the same list, nothing evaluated", async () => {
    for (const [name, body] of Object.entries(misfits)) {
      const [refused, warned] = await Promise.all([post(servers.reject!, body), post(servers.warn!, body)]);
      expect({ name, status: refused.status }).toEqual({ name, status: 422 });
      expect(refused.body).toMatchObject({
        type: "about:blank",
        title: "the request does not fit the ruleset",
        status: 422,
      });
      expect(refused.body.warnings).toEqual(warned.body.warnings);
      expect(refused.body.decision).toBeUndefined();
    }
    expect((await post(servers.reject!, transfer)).status).toBe(200);
    const metrics = parseExposition(await (await fetch(`${servers.reject!.url}/metrics`, { headers: auth })).text());
    expect(
      metrics.value("rule_server_request_warnings_total", {
        ruleset: "acme.payments.transfers",
        code: "ENTITY_UNKNOWN",
      }),
    ).toBe(1);
    const line = await servers.reject!.waitForLog((entry) => entry.msg === "request" && entry.status === 422);
    expect(line).toMatchObject({ ruleset: "acme.payments.transfers", warnings: expect.any(Number) });
  });
});

describe("off", () => {
  test("nothing is checked", async () => {
    for (const body of Object.values(misfits)) expect((await post(servers.off!, body)).body.warnings).toBeUndefined();
  });
});

describe("settings and load", () => {
  test("another value is a fatal setting", async () => {
    const child = Bun.spawn([process.execPath, join(PROJECT_ROOT, "src", "main.ts")], {
      env: serverEnvironment(rules, { RULE_SERVER_SCHEMA_ENFORCEMENT: "strict" }),
      stdout: "pipe",
    });
    const output = await new Response(child.stdout).text();
    expect(await child.exited).toBe(1);
    expect(output).toContain("RULE_SERVER_SCHEMA_ENFORCEMENT must be off, warn or reject");
  });

  test("a bundle without schemas checks entity and operation only, and says so once at load", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rule-server-enforcement-bundle-"));
    cpSync(
      join(PROJECT_ROOT, "test", "cases", "server-rules", "shop-bundled.bundle.json"),
      join(dir, "shop-bundled.bundle.json"),
    );
    const server = await startServer(serverEnvironment(dir));
    try {
      const warning = server
        .logs()
        .filter((line) => line.level === "warn" && String(line.msg).startsWith("entities without a schema"));
      expect(warning).toHaveLength(1);
      expect(warning[0]).toMatchObject({ entities: ["Order"] });
      const id = String(warning[0]!.ruleset);
      const answer = await post(server, {
        ruleset: id,
        entity: "Order",
        operation: "create",
        data: { quantity: "many" },
      });
      expect(answer.body.warnings).toBeUndefined();
      expect((await post(server, { ruleset: id, entity: "Ordr", operation: "create" })).body.warnings).toEqual([
        expect.objectContaining({ code: "ENTITY_UNKNOWN", didYouMean: "Order" }),
      ]);
    } finally {
      await server.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
