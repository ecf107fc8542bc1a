import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { EngineSession } from "../../src/protocol/engine-session.ts";
import { CASES_DIR } from "../support/golden-files.ts";
import { runCli } from "../support/run-cli.ts";

/** `evaluate --explain`: the text form for people against golden files, JSON for tools, and the protocol's member. */
const folder = join(CASES_DIR, "explanation-text");
const REQUEST = join(folder, "large-transfer.request.json");

for (const name of readdirSync(folder)
  .filter((file) => file.endsWith(".args"))
  .map((file) => file.slice(0, -".args".length))) {
  test(`text output: ${name}`, async () => {
    const args = readFileSync(join(folder, `${name}.args`), "utf8")
      .split("\n")
      .filter((line) => line !== "");
    const run = await runCli(["evaluate", ...args]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(readFileSync(join(folder, `${name}.txt`), "utf8"));
    expect(run.status).toBe(0);
  });
}

test("--format json gives the result with its explanation; --rule keeps that rule's entry", async () => {
  const run = await runCli([
    "evaluate",
    "rules/acme-payments-transfers.ruleset.yaml",
    REQUEST,
    "--explain",
    "full",
    "--format",
    "json",
    "--rule",
    "transfer.amount.limit",
  ]);
  const result = JSON.parse(run.stdout);
  expect(result.decision).toBe("deny");
  expect(result.explanation.rules).toHaveLength(1);
  expect(result.explanation.rules[0]).toMatchObject({
    rule: "transfer.amount.limit",
    status: "fired",
    because: ["/assert"],
  });
  expect(
    JSON.parse((await runCli(["evaluate", "rules/acme-payments-transfers.ruleset.yaml", REQUEST])).stdout).explanation,
  ).toBeUndefined();
});

test("an unknown --rule, a wrong mode and --rule without --explain are refused with a reason", async () => {
  const unknown = await runCli([
    "evaluate",
    "rules/acme-payments-transfers.ruleset.yaml",
    REQUEST,
    "--explain",
    "--rule",
    "transfer.amount.limt",
  ]);
  expect(unknown.status).toBe(1);
  expect(unknown.stderr).toContain(
    "no rule transfer.amount.limt in the server manifest: did you mean `transfer.amount.limit`?",
  );
  const mode = await runCli([
    "evaluate",
    "rules/acme-payments-transfers.ruleset.yaml",
    REQUEST,
    "--explain",
    "everything",
  ]);
  expect(mode.status).toBe(2);
  expect(mode.stderr).toContain("--explain takes rules or full, not everything");
  expect(
    (await runCli(["evaluate", "rules/acme-payments-transfers.ruleset.yaml", REQUEST, "--rule", "x"])).stderr,
  ).toContain("add --explain");
});

test("the engine protocol's evaluate takes explain, and refuses another value as BAD_REQUEST", () => {
  const session = new EngineSession();
  const manifest = {
    ruleCascade: "1.0.0",
    id: "t",
    version: "1.0.0",
    checksum: `sha256:${"0".repeat(64)}`,
    channel: "server",
    rules: [],
  };
  const request = { entity: "Order", operation: "create" };
  const answer = (
    extra: object,
  ): { ok: boolean; result?: { explanation?: unknown }; error?: { code: string; message: string } } =>
    JSON.parse(session.handleLine(JSON.stringify({ command: "evaluate", manifest, request, ...extra }))!);
  expect(answer({}).result!.explanation).toBeUndefined();
  expect(answer({ explain: "rules" }).result!.explanation).toEqual({
    rules: [],
    resolutions: [],
    unmatched: { entity: { given: "Order" }, operation: { given: "create" } },
  });
  expect(answer({ explain: null }).result!.explanation).toBeUndefined();
  expect(answer({ explain: "all" }).error).toEqual({ code: "BAD_REQUEST", message: "'explain' must be rules or full" });
});
