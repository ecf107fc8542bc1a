import { afterAll, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandPath, workingDirectory } from "../../src/cli/command-io.ts";
import { capturedIo, PROJECT_ROOT, runCli } from "../support/run-cli.ts";

/** A command's working directory: where relative paths are read from and what reports show paths relative to. */
const elsewhere = mkdtempSync(join(tmpdir(), "rule-server-command-io-"));
cpSync(join(PROJECT_ROOT, "rules"), join(elsewhere, "shipped"), { recursive: true });
mkdirSync(join(elsewhere, "empty"));
afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

test("with a working directory, relative paths are taken from it and absolute ones kept", () => {
  const { io } = capturedIo("", { cwd: elsewhere });
  expect(commandPath(io, "shipped")).toBe(join(elsewhere, "shipped"));
  expect(commandPath(io, "../x.json")).toBe(join(elsewhere, "..", "x.json"));
  expect(commandPath(io, "/abs/x.json")).toBe("/abs/x.json");
  expect(workingDirectory(io)).toBe(elsewhere);
});

test("without one, the process's own: paths go on as typed, so that messages name them as typed", () => {
  const io = { ...capturedIo().io, cwd: undefined };
  expect(commandPath(io, "./rules/")).toBe("./rules/");
  expect(workingDirectory(io)).toBe(process.cwd());
});

test("check reads a directory named relative to the working directory and shows its files relative to it", async () => {
  const run = await runCli(["check", "shipped"], "", { cwd: elsewhere });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  expect(run.stdout).toContain("shipped/acme-payments.ruleset.yaml (acme.payments): ok");
  const empty = await runCli(["check", "empty"], "", { cwd: elsewhere });
  expect([empty.status, empty.stderr]).toEqual([1, expect.stringContaining("no ruleset found in empty (")]);
});
