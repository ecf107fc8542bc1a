import { afterAll, expect, test } from "bun:test";
import { rulesDirectory } from "../../support/rules-directory.ts";
import { serverEnvironment, startExpectingFailure, startServer } from "../../support/server-process.ts";
import { allGone, alive, servingPids, supervisorPid, TWO_PROCESSES } from "../../support/server-processes.ts";

/**
 * A variable with the server's prefixes that it does not read is most likely misspelt: real server
 * processes name each one in a `warn` line at start-up, with the variable meant, and start anyway.
 */
const rules = rulesDirectory();
afterAll(() => rules.remove());

const unknownLines = (logs: Record<string, unknown>[]): Record<string, unknown>[] =>
  logs.filter((line) => line.msg === "unknown setting is ignored");

test("each unknown RULE_SERVER_, RULES_ or RULE_EVALUATION_ variable is a warn line with the closest known one; the server starts", async () => {
  const server = await startServer(
    serverEnvironment(rules.path, {
      RULE_SERVER_PROCESS: "2",
      rule_server_workers: "1",
      RULES_DRI: "/somewhere",
      RULE_EVALUATION_TIMEOUT: "100",
      RULE_SERVER_FAVOURITE_COLOUR: "blue",
      // Not the server's: no line.
      RULESET_PATH: "/elsewhere",
      OTHER_SERVER_TOKEN: "x",
    }),
  );
  try {
    const lines = unknownLines(server.logs());
    expect(lines.map(({ level, variable, didYouMean }) => ({ level, variable, didYouMean }))).toEqual([
      { level: "warn", variable: "RULES_DRI", didYouMean: "RULES_DIR" },
      { level: "warn", variable: "RULE_EVALUATION_TIMEOUT", didYouMean: "RULE_EVALUATION_TIMEOUT_MS" },
      { level: "warn", variable: "RULE_SERVER_FAVOURITE_COLOUR", didYouMean: undefined },
      { level: "warn", variable: "RULE_SERVER_PROCESS", didYouMean: "RULE_SERVER_PROCESSES" },
      { level: "warn", variable: "rule_server_workers", didYouMean: "RULE_SERVER_WORKERS" },
    ]);
    // Said before the server listens, and the misspelt settings changed nothing.
    const logs = server.logs();
    expect(logs.indexOf(lines.at(-1)!)).toBeLessThan(logs.findIndex((line) => line.msg === "listening"));
    expect(logs.find((line) => line.msg === "listening")).toMatchObject({ workers: 0 });
    expect(logs.find((line) => line.msg === "listening")!.processes).toBeUndefined();
  } finally {
    await server.kill();
  }
});

test("the variables the server reads get no line", async () => {
  const server = await startServer(
    serverEnvironment(rules.path, {
      RULES_REFRESH: "manual",
      RULE_SERVER_WORKERS: "0",
      RULE_EVALUATION_TIMEOUT_MS: "5000",
      RULE_SERVER_EXPLORER: "1",
    }),
  );
  try {
    expect(unknownLines(server.logs())).toEqual([]);
  } finally {
    await server.kill();
  }
});

test("a misspelt variable behind a fatal start-up is named before the fatal line", async () => {
  const run = await startExpectingFailure(
    serverEnvironment(rules.path, { RULE_SERVER_TOKEN: undefined, RULE_SERVER_TOKN: "a-token-of-some-length-0123" }),
  );
  expect(run.status).toBe(1);
  expect(run.logs.map((line) => line.msg)).toEqual(["unknown setting is ignored", "invalid configuration"]);
  expect(run.logs[0]).toMatchObject({ level: "warn", variable: "RULE_SERVER_TOKN", didYouMean: "RULE_SERVER_TOKEN" });
});

test("with several processes the supervisor says it once, with its pid", async () => {
  const server = await startServer(serverEnvironment(rules.path, { ...TWO_PROCESSES, RULE_SERVER_WORKER: "1" }));
  const pids: number[] = [];
  try {
    await server.waitForLog(() => servingPids(server).length >= 2);
    pids.push(supervisorPid(server), ...servingPids(server));
    const lines = unknownLines(server.logs());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      variable: "RULE_SERVER_WORKER",
      didYouMean: "RULE_SERVER_WORKERS",
      pid: supervisorPid(server),
    });
  } finally {
    await server.kill();
    if (!(await allGone(pids))) for (const pid of pids.filter(alive)) process.kill(pid, "SIGKILL");
  }
});
