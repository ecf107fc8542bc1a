import { expect, test } from "bun:test";
import packageJson from "../../package.json" with { type: "json" };
import { runCli } from "../support/run-cli.ts";

/** `rule-server <command>`: the commands this issue delivers and how bad command lines end. */

test("version prints the engine version, the specification and the bundle format", async () => {
  const run = await runCli(["version"]);
  expect(run.status).toBe(0);
  expect(run.stdout).toBe(`rule-server ${packageJson.version}\nspecification 1.0.0\nbundle format 1.0.0\n`);
});

test("help lists the commands", async () => {
  const run = await runCli(["help"]);
  expect(run.status).toBe(0);
  expect(run.stdout).toContain("rule-server engine");
});

test("an unknown command is a usage error with exit status 2", async () => {
  const run = await runCli(["frobnicate"]);
  expect(run.status).toBe(2);
  expect(run.stderr).toContain("unknown command frobnicate");
});

test("an unknown engine option is a usage error", async () => {
  const run = await runCli(["engine", "--nope"]);
  expect(run.status).toBe(2);
  expect(run.stderr).toContain("--nope");
});
