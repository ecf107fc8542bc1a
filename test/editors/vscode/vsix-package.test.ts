import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { basename, dirname, join } from "node:path";
import packageJson from "../../../package.json" with { type: "json" };
import { PROJECT_ROOT } from "../../support/run-cli.ts";
import { requireTool } from "../../support/system-tool.ts";
import { packVsix, unzip } from "../../support/vscode-extension-package.ts";

/**
 * The .vsix of `make vsix` (editors/vscode/package-vsix.ts), opened as VS Code opens it: a zip
 * holding the VSIX package's own two files and the extension under extension/, whose manifest
 * activates on rulesets, contributes the settings and names the bundled client as `main`.
 */
/**
 * A network namespace of its own, with no interface but loopback: made directly where that is
 * allowed (root with CAP_SYS_ADMIN), else inside an unprivileged user namespace (an ordinary user,
 * or root in a container without the capability), as the image tests run. The first that works.
 */
const unshare = requireTool("unshare");
const NO_NETWORK = [
  [unshare, "--net"],
  [unshare, "--user", "--map-root-user", "--net"],
].find((prefix) => Bun.spawnSync([...prefix, "true"], { stdout: "ignore", stderr: "ignore" }).exitCode === 0);
let vsix: string;

beforeAll(() => {
  // Packed where there is no network at all: offline is the point. Without a namespace the other
  // tests still look at the package; the offline test says why it failed.
  vsix = packVsix(NO_NETWORK === undefined ? undefined : (command) => [...NO_NETWORK, ...command]);
}, 60000);
afterAll(() => rmSync(dirname(vsix), { recursive: true, force: true }));

const entry = (name: string): Buffer => unzip("-p", vsix, name.replace(/[[\]*?]/g, "\\$&"));
const manifest = (): Record<string, any> => JSON.parse(entry("extension/package.json").toString("utf8"));

test("it is named for the project's version and is a zip archive unzip finds intact", () => {
  expect(basename(vsix)).toBe(`rule-server-${packageJson.version}.vsix`);
  expect(unzip("-tq", vsix).toString()).toContain("No errors detected");
});

test("it is packed with no network at all, in a network namespace of its own", () => {
  if (NO_NETWORK === undefined)
    throw new Error(
      "neither `unshare --net` nor `unshare --user --map-root-user --net` works here: this kernel or container allows no network namespace, not even inside a user namespace",
    );
  // beforeAll packed it there; the namespace has only loopback, which is down.
  const interfaces = Bun.spawnSync([...NO_NETWORK, "cat", "/proc/net/dev"], { stdout: "pipe", stderr: "pipe" });
  expect(interfaces.exitCode).toBe(0);
  expect(
    interfaces.stdout
      .toString()
      .split("\n")
      .slice(2)
      .filter(Boolean)
      .map((line) => line.trim().split(":")[0]),
  ).toEqual(["lo"]);
  expect(unzip("-tq", vsix).toString()).toContain("No errors detected");
});

test("it holds the VSIX manifest, the content types and the extension's files, nothing else", () => {
  const names = unzip("-Z1", vsix).toString().trim().split("\n").sort();
  expect(names).toEqual(
    [
      "[Content_Types].xml",
      "extension.vsixmanifest",
      "extension/LICENSE.txt",
      "extension/ThirdPartyNotices.txt",
      "extension/dist/extension.js",
      "extension/package.json",
      "extension/readme.md",
    ].sort(),
  );
  const vsixManifest = entry("extension.vsixmanifest").toString("utf8");
  expect(vsixManifest).toContain(
    `<Identity Language="en-US" Id="rule-server" Version="${packageJson.version}" Publisher="rule-server" />`,
  );
  expect(vsixManifest).toContain('<Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json"');
  expect(entry("[Content_Types].xml").toString("utf8")).toContain('Extension=".js"');
  // The project's license in full, not the note that points at it.
  expect(entry("extension/LICENSE.txt").equals(readFileSync(join(PROJECT_ROOT, "LICENSE")))).toBe(true);
});

test("the manifest activates on rulesets and YAML or JSON documents and names the bundled client as main", () => {
  const extension = manifest();
  expect(extension.name).toBe("rule-server");
  expect(extension.version).toBe(packageJson.version);
  expect(extension.license).toBe("Apache-2.0");
  expect(extension.engines.vscode).toBe("^1.91.0");
  expect(extension.main).toBe("./dist/extension.js");
  expect(extension.activationEvents).toEqual([
    "workspaceContains:**/*.ruleset.yaml",
    "workspaceContains:**/*.ruleset.yml",
    "workspaceContains:**/*.ruleset.json",
    "onLanguage:yaml",
    "onLanguage:json",
  ]);
});

test("it contributes ruleServer.path, ruleServer.args and ruleServer.trace.server, and a workspace cannot choose the program", () => {
  const extension = manifest();
  const properties = extension.contributes.configuration.properties;
  expect(Object.keys(properties).sort()).toEqual(["ruleServer.args", "ruleServer.path", "ruleServer.trace.server"]);
  expect(properties["ruleServer.path"]).toMatchObject({ type: "string", default: "rule-server" });
  expect(properties["ruleServer.args"]).toMatchObject({ type: "array", items: { type: "string" }, default: [] });
  expect(properties["ruleServer.trace.server"]).toMatchObject({ enum: ["off", "messages", "verbose"], default: "off" });
  expect(extension.capabilities.untrustedWorkspaces.restrictedConfigurations).toEqual([
    "ruleServer.path",
    "ruleServer.args",
  ]);
  expect(extension.contributes.commands.map((command: { command: string }) => command.command)).toEqual([
    "ruleServer.restart",
  ]);
});

test("the bundled client holds the language client and requires only vscode and Node's built-in modules", () => {
  const client = entry("extension/dist/extension.js").toString("utf8");
  // vscode-languageclient's own words, and this extension's.
  expect(client).toContain("Launching server using command");
  expect(client).toContain("textDocument/publishDiagnostics");
  expect(client).toContain("ruleServer.restart");
  const required = [
    ...new Set([...client.matchAll(/\brequire\(\s*(["'`])([^"'`]+)\1\s*\)/g)].map((match) => match[2]!)),
  ].sort();
  expect(required).toContain("vscode");
  expect(required.filter((name) => name !== "vscode" && !builtinModules.includes(name.replace(/^node:/, "")))).toEqual(
    [],
  );
  // No require of a computed name, which the bundler would have left for run time.
  expect(client.match(/\brequire\(\s*[^"'`\s)]/g) ?? []).toEqual([]);
  expect(client).not.toMatch(/\bimport\s*\(/);
});

test("the bundled packages' license notices ship with it", () => {
  const notices = entry("extension/ThirdPartyNotices.txt").toString("utf8");
  for (const name of ["vscode-languageclient", "vscode-languageserver-protocol", "vscode-jsonrpc"])
    expect(notices).toContain(`${name} `);
  expect(notices).toContain("MIT License");
});

test("packing again gives the same bytes", () => {
  const again = packVsix();
  try {
    expect(readFileSync(again).equals(readFileSync(vsix))).toBe(true);
  } finally {
    rmSync(dirname(again), { recursive: true, force: true });
  }
}, 60000);
