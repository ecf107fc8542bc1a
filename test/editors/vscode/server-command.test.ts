import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  commandLine,
  resolveServerCommand,
  type ServerEnvironment,
} from "../../../editors/vscode/src/server-command.ts";

/** How the extension's settings become the command line of `rule-server lsp`, before anything is spawned. */
const root = mkdtempSync(join(tmpdir(), "rule-server-command-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(path: string, mode: number): string {
  const full = join(root, path);
  mkdirSync(join(full, ".."), { recursive: true });
  writeFileSync(full, "#!/bin/sh\n");
  chmodSync(full, mode);
  return full;
}

const onPath = file("bin/rule-server", 0o755);
const notExecutable = file("home/tools/rule-server", 0o644);
const inClone = file("clone/node_modules/.bin/bun", 0o755);
const inHome = file("home/bin/rule-server", 0o755);

const environment = (overrides: Partial<ServerEnvironment> = {}): ServerEnvironment => ({
  PATH: `${join(root, "nothing-here")}:${join(root, "bin")}`,
  home: join(root, "home"),
  platform: "linux",
  workspaceRoot: join(root, "clone"),
  ...overrides,
});

test("the default finds rule-server on PATH and runs `rule-server lsp` in the workspace folder", () => {
  expect(resolveServerCommand({ path: "rule-server", args: [] }, environment())).toEqual({
    ok: true,
    server: { command: onPath, args: ["lsp"], cwd: join(root, "clone") },
  });
  // An empty setting is the default, not the current directory.
  expect(resolveServerCommand({ path: "  ", args: [] }, environment())).toMatchObject({
    ok: true,
    server: { command: onPath },
  });
});

test("args come between the executable and lsp, so that a clone runs as `bun src/main.ts lsp`", () => {
  const resolved = resolveServerCommand({ path: "node_modules/.bin/bun", args: ["src/main.ts"] }, environment());
  expect(resolved).toEqual({
    ok: true,
    server: { command: inClone, args: ["src/main.ts", "lsp"], cwd: join(root, "clone") },
  });
});

test("~/ is the home directory", () => {
  expect(resolveServerCommand({ path: "~/bin/rule-server", args: [] }, environment())).toMatchObject({
    ok: true,
    server: { command: inHome },
  });
});

test("what cannot be run is said in words: not on PATH, missing, not executable, relative without a folder", () => {
  expect(
    resolveServerCommand({ path: "rule-server", args: [] }, environment({ PATH: join(root, "nothing-here") })),
  ).toEqual({ ok: false, problem: "`rule-server` was not found on PATH" });
  expect(resolveServerCommand({ path: "/no/such/rule-server", args: [] }, environment())).toEqual({
    ok: false,
    problem: "`/no/such/rule-server` does not exist",
  });
  expect(resolveServerCommand({ path: notExecutable, args: [] }, environment())).toEqual({
    ok: false,
    problem: `\`${notExecutable}\` is not an executable file`,
  });
  expect(resolveServerCommand({ path: join(root, "bin"), args: [] }, environment())).toEqual({
    ok: false,
    problem: `\`${join(root, "bin")}\` is not an executable file`,
  });
  expect(
    resolveServerCommand({ path: "node_modules/.bin/bun", args: [] }, environment({ workspaceRoot: undefined })),
  ).toEqual({
    ok: false,
    problem: "the relative path `node_modules/.bin/bun` needs an open folder to start from; give an absolute path",
  });
});

test("the command line in messages is quoted where a shell would need it", () => {
  expect(commandLine({ command: "/opt/rule server/rule-server", args: ["--x=it's", "lsp"] })).toBe(
    "'/opt/rule server/rule-server' '--x=it'\\''s' lsp",
  );
});
