import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../support/run-cli.ts";

/** `rule-server evaluate <bundle|source> requests.jsonl --lines`: one request per line in, one JSON line per request out. */
const BUNDLE = "test/cases/interop/shop/shop-order.bundle.json";
const SOURCE = "test/cases/interop/shop/shop-order.ruleset.yaml";
const order = {
  entity: "Order",
  operation: "create",
  data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
};
const tooMany = { ...order, data: { quantity: 150, unitPrice: 2 } };
const scratch = mkdtempSync(join(tmpdir(), "rule-server-lines-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What `evaluate` prints for one request on its own, as one line. */
async function alone(rules: string, request: unknown, extra: string[] = []): Promise<string> {
  const run = await runCli(["evaluate", rules, "-", ...extra], JSON.stringify(request));
  expect(run.status).toBe(0);
  return JSON.stringify(JSON.parse(run.stdout));
}

test("each line's result is what evaluate prints for that request alone, in order, from a file or standard input", async () => {
  const file = join(scratch, "requests.jsonl");
  writeFileSync(
    file,
    `${[order, tooMany, { ...order, channel: "client" }].map((request) => JSON.stringify(request)).join("\n")}\n`,
  );
  const expected = [
    await alone(BUNDLE, order),
    await alone(BUNDLE, tooMany),
    await alone(BUNDLE, { ...order, channel: "client" }),
  ];
  for (const rules of [BUNDLE, SOURCE]) {
    const run = await runCli(["evaluate", rules, file, "--lines"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout.split("\n")).toEqual([...expected, ""]);
  }
  const piped = await runCli(
    ["evaluate", "--bundle", BUNDLE, "--lines"],
    `${JSON.stringify(order)}\r\n${JSON.stringify(tooMany)}`,
  );
  expect(piped.stdout).toBe(`${expected[0]}\n${expected[1]}\n`);
});

test("a bad line is answered with an error object naming its line; the others are evaluated; the status is 1", async () => {
  const input = [
    JSON.stringify(order),
    "",
    "{not json",
    '{"entity": 5}',
    '{"entity":"Order","operation":"create","data":{"n":1e999}}',
    "[1]",
    JSON.stringify(tooMany),
  ].join("\n");
  const run = await runCli(["evaluate", BUNDLE, "-", "--lines"], input);
  expect(run.status).toBe(1);
  const lines = run.stdout
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect(lines).toHaveLength(6);
  expect(JSON.stringify(lines[0])).toBe(await alone(BUNDLE, order));
  expect(lines[1]).toMatchObject({ line: 3, error: { code: "BAD_REQUEST" } });
  expect(lines[2]).toEqual({ line: 4, error: { code: "BAD_REQUEST", message: "'entity' must be a string" } });
  expect(lines[3]).toEqual({ line: 5, error: { code: "BAD_REQUEST", message: "a number is too large for a double" } });
  expect(lines[4]).toEqual({ line: 6, error: { code: "BAD_REQUEST", message: "a request is an object" } });
  expect(JSON.stringify(lines[5])).toBe(await alone(BUNDLE, tooMany));
});

test("--explain applies to every line; --format text, --rule and a missing file are refused", async () => {
  const run = await runCli(
    ["evaluate", BUNDLE, "--lines", "--explain", "full", "-"],
    `${JSON.stringify(order)}\n${JSON.stringify(tooMany)}\n`,
  );
  expect(run.status).toBe(0);
  const lines = run.stdout.trimEnd().split("\n");
  expect(lines).toEqual([
    await alone(BUNDLE, order, ["--explain", "full", "--format", "json"]),
    await alone(BUNDLE, tooMany, ["--explain", "full", "--format", "json"]),
  ]);
  expect(JSON.parse(lines[0]!).explanation.rules.length).toBeGreaterThan(0);
  expect((await runCli(["evaluate", BUNDLE, "--lines", "--format", "text", "-"])).status).toBe(2);
  expect((await runCli(["evaluate", BUNDLE, "--lines", "--explain", "--rule", "order.quantity.max", "-"])).status).toBe(
    2,
  );
  const missing = await runCli(["evaluate", BUNDLE, join(scratch, "none.jsonl"), "--lines"]);
  expect(missing.status).toBe(1);
  expect(missing.stderr).toContain(
    `cannot read the request file ${join(scratch, "none.jsonl")}: no such file or directory`,
  );
});

test("many lines: one line out per request line, written in blocks", async () => {
  const requests = Array.from({ length: 3000 }, (_, index) => ({
    ...order,
    data: { ...order.data, quantity: (index % 120) + 1 },
  }));
  const run = await runCli(
    ["evaluate", BUNDLE, "-", "--lines"],
    requests.map((request) => JSON.stringify(request)).join("\n"),
  );
  expect(run.status).toBe(0);
  const decisions = run.stdout
    .trimEnd()
    .split("\n")
    .map((line) => (JSON.parse(line) as { decision: string }).decision);
  expect(decisions).toHaveLength(3000);
  expect(decisions.filter((decision) => decision === "deny").length).toBe(
    requests.filter((request) => request.data.quantity > 100).length,
  );
});
