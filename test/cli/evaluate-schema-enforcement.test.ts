import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { PROJECT_ROOT, runCli } from "../support/run-cli.ts";
import { serverEnvironment, startServer, TOKEN, type ServerProcess } from "../support/server-process.ts";

/**
 * `evaluate --schema-enforcement off|warn|reject`: off unless asked (DECISIONS.md), and when asked
 * the same `warnings`, and the same refusal, as a server with RULE_SERVER_SCHEMA_ENFORCEMENT
 * answers the same request (the server here runs the default, warn, on the rules/ example).
 */
const RULES = "rules/acme-payments-transfers.ruleset.yaml";
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
  ctx: { now: "2026-03-02T09:30:00Z" },
};
const misfit = {
  ...transfer,
  operation: "craete",
  data: { ...transfer.data, amount: undefined, amout: 120, purpose: "salry" },
};

let server: ServerProcess;
beforeAll(async () => {
  server = await startServer(serverEnvironment(join(PROJECT_ROOT, "rules")));
});
afterAll(() => server.kill());

async function served(request: unknown): Promise<any> {
  const response = await fetch(`${server.url}/evaluations`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify(request),
  });
  expect(response.status).toBe(200);
  return response.json();
}

test("off by default: a request that does not fit is evaluated without warnings, as with off", async () => {
  const plain = await runCli(["evaluate", RULES, "-"], JSON.stringify(misfit));
  const off = await runCli(["evaluate", RULES, "-", "--schema-enforcement", "off"], JSON.stringify(misfit));
  expect(plain.status).toBe(0);
  expect(JSON.parse(plain.stdout).warnings).toBeUndefined();
  expect(off.stdout).toBe(plain.stdout);
});

test("warn: the server's answer, warnings and all; a request that fits gets none", async () => {
  const warned = await runCli(["evaluate", RULES, "-", "--schema-enforcement", "warn"], JSON.stringify(misfit));
  expect(warned.status).toBe(0);
  const answer = await served(misfit);
  expect(answer.warnings.map((warning: { code: string }) => warning.code)).toEqual(
    expect.arrayContaining(["OPERATION_UNKNOWN", "DATA_INVALID"]),
  );
  expect(JSON.parse(warned.stdout)).toEqual(answer);
  const fits = await runCli(["evaluate", RULES, "-", "--schema-enforcement", "warn"], JSON.stringify(transfer));
  expect(JSON.parse(fits.stdout)).toEqual(await served(transfer));
  expect(JSON.parse(fits.stdout).warnings).toBeUndefined();
});

test("warn with --format text: a line per warning", async () => {
  const run = await runCli(
    ["evaluate", RULES, "-", "--schema-enforcement", "warn", "--explain", "--format", "text"],
    JSON.stringify(misfit),
  );
  expect(run.status).toBe(0);
  expect(run.stdout).toContain(
    '  warning OPERATION_UNKNOWN /operation: no rule of Transfer names the operation "craete": did you mean "create"?',
  );
});

test("reject: nothing evaluated, the server's warnings listed one a line on stderr, exit 1", async () => {
  const run = await runCli(["evaluate", RULES, "-", "--schema-enforcement", "reject"], JSON.stringify(misfit));
  expect(run.status).toBe(1);
  expect(run.stdout).toBe("");
  const warnings: { code: string; pointer: string }[] = (await served(misfit)).warnings;
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines[0]).toBe("rule-server evaluate: REQUEST_MISFIT: the request does not fit the ruleset:");
  expect(lines.slice(1).map((line) => line.trim().split(":")[0])).toEqual(
    warnings.map((warning) => `${warning.code} ${warning.pointer}`),
  );
  const fits = await runCli(["evaluate", RULES, "-", "--schema-enforcement", "reject"], JSON.stringify(transfer));
  expect(fits.status).toBe(0);
});

test("reject with --lines: an error line carrying the warnings; the other lines are evaluated", async () => {
  const run = await runCli(
    ["evaluate", RULES, "-", "--lines", "--schema-enforcement", "reject"],
    `${JSON.stringify(misfit)}\n${JSON.stringify(transfer)}\n`,
  );
  expect(run.status).toBe(1);
  const [refused, evaluated] = run.stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect(refused).toEqual({
    line: 1,
    error: {
      code: "REQUEST_MISFIT",
      message: "the request does not fit the ruleset",
      warnings: (await served(misfit)).warnings,
    },
  });
  expect(evaluated).toEqual(await served(transfer));
});

test("another value is a usage error naming the values", async () => {
  const run = await runCli(["evaluate", RULES, "-", "--schema-enforcement", "strict"], JSON.stringify(transfer));
  expect(run.status).toBe(2);
  expect(run.stderr).toContain("--schema-enforcement takes off, warn, reject, not strict");
});

test("evaluate --help names the option and its default", async () => {
  const run = await runCli(["evaluate", "--help"]);
  expect(run.stdout).toContain("[--schema-enforcement off|warn|reject]");
  expect(run.stdout).toContain("(default: off");
});
