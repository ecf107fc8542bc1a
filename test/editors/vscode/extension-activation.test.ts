import { afterAll, beforeAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { packVsix, unzip } from "../../support/vscode-extension-package.ts";

/**
 * The extension as VS Code runs it: the client bundled in the .vsix, loaded by Node.js with a
 * stand-in for the `vscode` module (vscode-stand-in.cjs) that records notifications, output and
 * commands. What an author sees when the language server cannot start is pinned here: one
 * notification, saying why and naming the setting to change.
 */
const NODE = Bun.which("node");
let work: string;
let bundle: string;
/** A directory on no one's PATH but the tests': nothing named rule-server is found there. */
let emptyPath: string;

beforeAll(() => {
  if (NODE === null)
    throw new Error("node was not found on PATH: the extension runs in VS Code's Node.js and is tested in Node.js");
  const vsix = packVsix();
  work = mkdtempSync(join(tmpdir(), "rule-server-extension-"));
  bundle = join(work, "extension.js");
  writeFileSync(bundle, unzip("-p", vsix, "extension/dist/extension.js"));
  rmSync(dirname(vsix), { recursive: true, force: true });
  emptyPath = join(work, "empty-path");
  mkdirSync(emptyPath);
}, 60000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Event =
  | { kind: "notification"; message: string; items: string[] }
  | { kind: "output"; text: string }
  | { kind: "command executed"; command: string; args: unknown[] }
  | { kind: "command registered"; command: string }
  | { kind: "exports"; names: string[] };

interface Scenario {
  settings?: Record<string, unknown>;
  rulesetInWorkspace?: boolean;
  openDocuments?: string[];
  answer?: string;
  notifications?: number;
  changedSettings?: Record<string, unknown>;
}

function activate(scenario: Scenario): Event[] {
  const run = Bun.spawnSync([NODE!, join(import.meta.dir, "vscode-stand-in.cjs"), bundle, JSON.stringify(scenario)], {
    cwd: work,
    env: { PATH: emptyPath, HOME: work },
    stdout: "pipe",
    stderr: "pipe",
    timeout: 20000,
  });
  if (run.exitCode !== 0) throw new Error(`the stand-in failed (exit ${run.exitCode}): ${run.stderr.toString()}`);
  return JSON.parse(run.stdout.toString()) as Event[];
}

const notifications = (events: Event[]) => events.filter((event) => event.kind === "notification");
const output = (events: Event[]) => events.flatMap((event) => (event.kind === "output" ? [event.text] : []));

test("the bundle exports activate and deactivate and registers the restart command", () => {
  const events = activate({});
  expect(events[0]).toEqual({ kind: "exports", names: ["activate", "deactivate"] });
  expect(events).toContainEqual({ kind: "command registered", command: "ruleServer.restart" });
}, 30000);

test("with no ruleset in the workspace nor open, no server starts and nothing is shown", () => {
  const events = activate({ rulesetInWorkspace: false, openDocuments: ["/somewhere/customer.schema.json"] });
  expect(notifications(events)).toEqual([]);
  expect(output(events).filter((line) => line.startsWith("starting"))).toEqual([]);
}, 30000);

test("rule-server missing from PATH is one notification naming ruleServer.path, whose button opens that setting", () => {
  const events = activate({ rulesetInWorkspace: true, answer: "Open Settings", notifications: 1 });
  const shown = notifications(events);
  expect(shown.length).toBe(1);
  expect(shown[0]!.message).toContain("`rule-server` was not found on PATH");
  expect(shown[0]!.message).toContain('set "ruleServer.path" to the rule-server executable');
  expect(shown[0]!.items).toEqual(["Open Settings", "Show Output"]);
  expect(events).toContainEqual({
    kind: "command executed",
    command: "workbench.action.openSettings",
    args: ["ruleServer.path"],
  });
}, 30000);

test("an opened ruleset starts the server even when the workspace search finds none", () => {
  const events = activate({
    rulesetInWorkspace: false,
    openDocuments: [join(work, "loans.ruleset.yml")],
    notifications: 1,
  });
  expect(notifications(events).length).toBe(1);
}, 30000);

test("a path that does not exist, relative to the workspace folder, is named as it resolved", () => {
  const events = activate({
    rulesetInWorkspace: true,
    settings: { "ruleServer.path": "bin/rule-server" },
    notifications: 1,
  });
  expect(notifications(events)[0]!.message).toContain(`\`${join(work, "bin", "rule-server")}\` does not exist`);
}, 30000);

test("a server that exits at once is reported once, with its status, the settings to check and its own words in the output, and not restarted", () => {
  const starts = join(work, "starts.log");
  const server = join(work, "old-rule-server");
  writeFileSync(server, `#!/bin/sh\necho "$*" >> '${starts}'\necho "rule-server: unknown command lsp" >&2\nexit 2\n`);
  chmodSync(server, 0o755);
  const events = activate({
    rulesetInWorkspace: true,
    settings: { "ruleServer.path": server, "ruleServer.args": ["--verbose"] },
    notifications: 1,
  });
  const shown = notifications(events);
  expect(shown.length).toBe(1);
  expect(shown[0]!.message).toContain(
    `the language server \`${server} --verbose lsp\` did not start (it exited with status 2)`,
  );
  expect(shown[0]!.message).toContain('Check "ruleServer.path" and "ruleServer.args"');
  expect(output(events).some((line) => line.includes("rule-server: unknown command lsp"))).toBe(true);
  expect(readFileSync(starts, "utf8")).toBe("--verbose lsp\n");
}, 30000);

test("changing ruleServer.path starts the server again, from the new path", () => {
  const events = activate({
    rulesetInWorkspace: true,
    settings: { "ruleServer.path": "rule-server-old" },
    notifications: 1,
    changedSettings: { "ruleServer.path": "rule-server-new" },
  });
  expect(notifications(events).map((shown) => /`([^`]+)` was not found/.exec(shown.message)?.[1])).toEqual([
    "rule-server-old",
    "rule-server-new",
  ]);
}, 30000);
