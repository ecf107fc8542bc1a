import { describe, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { join } from "node:path";
import packageJson from "../../package.json" with { type: "json" };
import { commandHelp, HELP_TEXT } from "../../src/cli/help-text.ts";
import { runCli, runCliProcess } from "../support/run-cli.ts";

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

/**
 * The seam between the process and the commands (src/main.ts and the process's io): every other
 * CLI test runs its command in process, through runCommand.
 */
describe("in a real process", () => {
  test("check of the shipped rules, named relative to the working directory, prints OK and exits 0", async () => {
    const run = await runCliProcess(["check", "rules"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("rules/acme-payments.ruleset.yaml (acme.payments): ok");
    expect(run.stdout.trimEnd().split("\n").at(-1)).toStartWith("OK: ");
  });

  test("an unknown command exits 2 with the message and the help on stderr", async () => {
    const run = await runCliProcess(["frobnicate"]);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`rule-server: unknown command frobnicate\n\n${HELP_TEXT}`);
  });

  test("<command> --help prints the command's usage on stdout and exits 0", async () => {
    const run = await runCliProcess(["evaluate", "--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(commandHelp("evaluate"));
    expect(run.stderr).toBe("");
  });

  test("evaluate --lines reads the requests piped to standard input and writes a line for each", async () => {
    const order = {
      entity: "Order",
      operation: "create",
      data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
    };
    const tooMany = { ...order, data: { quantity: 150, unitPrice: 2 } };
    const run = await runCliProcess(
      ["evaluate", "--bundle", "test/cases/interop/shop/shop-order.bundle.json", "--lines", "-"],
      `${JSON.stringify(order)}\n${JSON.stringify(tooMany)}\n`,
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const decisions = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line).decision);
    expect(decisions).toEqual(["allow", "deny"]);
  });

  test("an error no command expects exits 1 with its message on stderr", async () => {
    const output = join(tmpdir(), "rule-server-no-such-directory", "out.bundle.json");
    const run = await runCliProcess(["compile", "test/cases/interop/shop/shop-order.ruleset.yaml", "-o", output]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toStartWith("rule-server: ");
    expect(run.stderr).toContain("ENOENT");
  });
});
