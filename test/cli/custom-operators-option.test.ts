import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../support/run-cli.ts";
import { serverEnvironment, startServer, TOKEN } from "../support/server-process.ts";

/**
 * One policy for custom operators: a command registers those the host registers, which for the
 * rule-server executable is none, so a golden test passes in `check` exactly when its rules work in
 * the server; `--operators test` registers the conformance corpora's (x-test-reverse, x-test-sum,
 * x-luhn).
 */
const directory = mkdtempSync(join(tmpdir(), "rule-server-operators-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
writeFileSync(
  join(directory, "card.schema.json"),
  JSON.stringify({ type: "object", properties: { number: { type: "string" } } }),
);
writeFileSync(
  join(directory, "cards.ruleset.yaml"),
  `ruleCascade: "1.0.0"
kind: RuleSet
metadata: { id: t.cards, version: 1.0.0, title: Cards }
scope: [{ level: enterprise, id: t }]
entities:
  Card: { schema: { $ref: "./card.schema.json" } }
operators:
  x-luhn: { description: The Luhn checksum of a card number holds., args: 1 }
rules:
  - id: card.number.luhn
    kind: validation
    target: { entity: Card, field: /number }
    operations: [create]
    assert: { op: x-luhn, args: [{ var: data.number }] }
    severity: error
    finding: { code: CARD-1, message: luhn }
messages:
  en: { luhn: "The card number is mistyped." }
tests:
  - name: a valid number is allowed
    entity: Card
    operation: create
    given: { data: { number: "4539578763621486" } }
    expect: { decision: allow, findings: [] }
`,
);
const request = join(directory, "request.json");
writeFileSync(
  request,
  JSON.stringify({ ruleset: "t.cards", entity: "Card", operation: "create", data: { number: "4539578763621486" } }),
);

test("check without --operators: the golden test fails closed as it would in the server, and a warning names the operator", async () => {
  const run = await runCli(["check", directory]);
  expect(run.status).toBe(1);
  expect(run.stdout).toContain("OPERATOR_NOT_REGISTERED the host registers no custom operator x-luhn");
  expect(run.stdout).toContain("FAIL a valid number is allowed");
});

test("check, test, evaluate and replay with --operators test register the conformance operators", async () => {
  const check = await runCli(["check", "--operators", "test", directory]);
  expect([check.status, check.stdout.includes("OPERATOR_NOT_REGISTERED")]).toEqual([0, false]);
  expect((await runCli(["test", "--operators", "test", directory])).status).toBe(0);
  expect((await runCli(["test", directory])).status).toBe(1);
  const evaluated = await runCli(["evaluate", "--operators", "test", join(directory, "cards.ruleset.yaml"), request]);
  expect(JSON.parse(evaluated.stdout).decision).toBe("allow");
  const unregistered = await runCli(["evaluate", join(directory, "cards.ruleset.yaml"), request]);
  expect(JSON.parse(unregistered.stdout).findings[0].code).toBe("RULE-EVALUATION-ERROR");
  for (const command of ["check", "test", "evaluate", "replay", "lsp"])
    expect((await runCli([command, "--help"])).stdout).toContain("--operators test");
  const refused = await runCli(["check", "--operators", "all", directory]);
  expect([refused.status, refused.stderr]).toEqual([2, expect.stringContaining("check: --operators takes test")]);
});

test("the server, which registers none, answers the golden test's request as check without --operators predicts", async () => {
  const server = await startServer(serverEnvironment(directory));
  try {
    const answer = await fetch(`${server.url}/evaluations`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        ruleset: "t.cards",
        entity: "Card",
        operation: "create",
        data: { number: "4539578763621486" },
      }),
    });
    const result = (await answer.json()) as { decision: string; findings: { code: string }[] };
    expect([result.decision, result.findings.map((finding) => finding.code)]).toEqual([
      "deny",
      ["RULE-EVALUATION-ERROR"],
    ]);
    expect(server.logs().some((line) => line.level === "warn" && JSON.stringify(line).includes("x-luhn"))).toBe(true);
  } finally {
    await server.kill();
  }
});
