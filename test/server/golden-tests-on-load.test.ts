import { describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { serverEnvironment, startExpectingFailure, startServer, TOKEN } from "../support/server-process.ts";

/**
 * RULE_SERVER_RUN_TESTS=1: the golden tests run at start-up and on every reload, and a failing
 * test refuses the load like any other load problem. Real processes serve a copy of rules/.
 */
const TEST_NAME = "a domestic transfer within policy is allowed";
const PARENT = "acme-payments.ruleset.yaml";

function exampleRules(): { path: string; breakTest: () => number; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), "rule-server-run-tests-"));
  cpSync(join(PROJECT_ROOT, "rules"), path, { recursive: true });
  return {
    path,
    // The first test of the parent now expects deny: its evaluation still allows. Returns the line of its name.
    breakTest: () => {
      const text = readFileSync(join(path, PARENT), "utf8");
      const at = text.indexOf(`- name: ${TEST_NAME}`);
      const decision = text.indexOf("decision: allow", at);
      writeFileSync(
        join(path, PARENT),
        `${text.slice(0, decision)}decision: deny${text.slice(decision + "decision: allow".length)}`,
      );
      return text.slice(0, at).split("\n").length;
    },
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

describe("RULE_SERVER_RUN_TESTS", () => {
  test("a reload whose golden test fails is refused: the previous rules stay, and the refusal names the test and its line", async () => {
    const rules = exampleRules();
    const server = await startServer(serverEnvironment(rules.path, { RULE_SERVER_RUN_TESTS: "1" }));
    try {
      const line = rules.breakTest();
      server.signal("SIGHUP");
      const refused = await server.waitForLog((entry) => String(entry.msg).startsWith("reload refused"));
      const problems = refused.problems as {
        code: string;
        message: string;
        file: string;
        line: number;
        column: number;
      }[];
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({ code: "GOLDEN_TEST_FAILED", line, column: 11 });
      expect(problems[0]!.message).toContain(TEST_NAME);
      expect(problems[0]!.message).toContain('decision is "allow", expected "deny"');
      expect(problems[0]!.file).toContain(PARENT);
      const ready = (await (
        await fetch(`${server.url}/readyz`, { headers: { Authorization: `Bearer ${TOKEN}` } })
      ).json()) as { rulesets: number; lastReload: { outcome: string } };
      expect(ready).toMatchObject({ rulesets: 3, lastReload: { outcome: "refused" } });
    } finally {
      await server.kill();
      rules.remove();
    }
  });

  test("without it, the same failing test does not stop a reload (check is where tests run)", async () => {
    const rules = exampleRules();
    const server = await startServer(serverEnvironment(rules.path));
    try {
      rules.breakTest();
      server.signal("SIGHUP");
      expect(await server.waitForLog((entry) => entry.msg === "rules reloaded")).toMatchObject({ rulesets: 3 });
    } finally {
      await server.kill();
      rules.remove();
    }
  });

  test("at start-up a failing test stops the server with the test's place; passing tests let it listen", async () => {
    const rules = exampleRules();
    try {
      const good = await startServer(serverEnvironment(rules.path, { RULE_SERVER_RUN_TESTS: "true" }));
      await good.kill();
      const line = rules.breakTest();
      const run = await startExpectingFailure(serverEnvironment(rules.path, { RULE_SERVER_RUN_TESTS: "1" }));
      expect(run.status).toBe(1);
      const fatal = run.logs.find((entry) => entry.level === "fatal")!;
      // The child extends the refused parent: it is refused too, for that reason.
      expect(fatal.problems).toContainEqual(expect.objectContaining({ code: "GOLDEN_TEST_FAILED", line }));
      expect(run.logs.some((entry) => entry.msg === "listening")).toBe(false);
    } finally {
      rules.remove();
    }
  });

  test("another value is a configuration error", async () => {
    const rules = exampleRules();
    try {
      const run = await startExpectingFailure(serverEnvironment(rules.path, { RULE_SERVER_RUN_TESTS: "yes" }));
      expect(run.status).toBe(1);
      expect(run.output).toContain("RULE_SERVER_RUN_TESTS must be 0 or 1");
    } finally {
      rules.remove();
    }
  });
});
