import { afterAll, describe, expect, test } from "bun:test";
import { LoadedRuleset } from "../../src/engine/bundle/loaded-ruleset.ts";
import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import { join } from "node:path";
import { CLAIMS_FILES } from "../support/claims-ruleset.ts";
import { runCli } from "../support/run-cli.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/**
 * `rule-server plan`: the plan `POST /plans` answers for the request its options make, against
 * the rules `evaluate` loads; a request it cannot make, or rules that do not load, is one line.
 */
const claims = temporaryDirectory(CLAIMS_FILES);
afterAll(() => claims.remove());
const ADJUSTER = '{"roles":["adjuster"],"region":"north"}';

function oneLine(stderr: string): string {
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr.trim().split("\n")).toHaveLength(1);
  return stderr.trim();
}

describe("rule-server plan", () => {
  test("prints the engine's plan for the request its options make, with the WHERE clause of --dialect", async () => {
    const run = await runCli([
      "plan",
      claims.path,
      "--entity",
      "Claim",
      "--operation",
      "approve",
      "--actor",
      ADJUSTER,
      "--dialect",
      "postgresql",
      "--columns",
      '{"/status":"status"}',
    ]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const answer = JSON.parse(run.stdout);
    const compiled = compileSourceFile(join(claims.path, "claims.ruleset.yaml"));
    if (!compiled.ok) throw new Error("the claims ruleset does not compile");
    const engine = LoadedRuleset.fromBundle(compiled.compiled.bundle).plan({
      entity: "Claim",
      operation: "approve",
      actor: JSON.parse(ADJUSTER),
    });
    const { sql, ...plan } = answer as { sql: { where: string; params: unknown[] } };
    expect(plan).toEqual(engine as never);
    expect(sql.where).toContain('"status"');
    expect(sql.where).toContain("$1");
  });

  test("--want deny and rule:<id> plan those; without --dialect there is no sql", async () => {
    const base = ["plan", claims.path, "--entity", "Claim", "--operation", "approve", "--actor", ADJUSTER];
    const deny = JSON.parse((await runCli([...base, "--want", "deny"])).stdout);
    const fires = JSON.parse((await runCli([...base, "--want", "rule:claim.region.own"])).stdout);
    expect(deny).toMatchObject({ kind: "conditional", exact: true });
    expect(deny.sql).toBeUndefined();
    expect(JSON.stringify(fires.condition)).toContain("/region");
    expect(JSON.stringify(fires.condition)).not.toContain("/amount");
  });

  test("refuses in one line: a missing --entity, a --want of another form, JSON that is not an object, an unknown rule or dialect", async () => {
    const base = ["plan", claims.path, "--operation", "approve"];
    const noEntity = await runCli(base);
    expect(noEntity.status).toBe(2);
    expect(noEntity.stderr).toContain("--entity is required");
    const withEntity = [...base, "--entity", "Claim"];
    for (const [args, said] of [
      [["--want", "maybe"], "--want takes allow, deny or rule:<id>"],
      [["--actor", "[1]"], "--actor takes a JSON object"],
    ] as const) {
      const run = await runCli([...withEntity, ...args]);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(said);
    }
    for (const [args, said] of [
      [["--want", "rule:claim.nope"], "BAD_REQUEST: 'want' names rule claim.nope"],
      [["--dialect", "oracle"], "BAD_REQUEST: 'dialect' must be"],
      [["--channel", "client", "--ctx", '{"a":1}'], ""],
    ] as const) {
      const run = await runCli([...withEntity, ...args]);
      if (said === "") expect(run.status).toBe(0);
      else {
        expect(run.status).toBe(1);
        expect(oneLine(run.stderr)).toContain(said);
      }
    }
  });

  test("a directory of several rulesets needs --ruleset, which picks one", async () => {
    const run = await runCli(["plan", "rules", "--entity", "Transfer", "--operation", "approve"]);
    expect(run.status).toBe(1);
    expect(oneLine(run.stderr)).toContain("name one with --ruleset");
    const picked = await runCli([
      "plan",
      "rules",
      "--ruleset",
      "acme.payments",
      "--entity",
      "Transfer",
      "--operation",
      "approve",
    ]);
    expect(picked.status).toBe(0);
    expect(JSON.parse(picked.stdout).ruleset).toBe("acme.payments");
  });
});
