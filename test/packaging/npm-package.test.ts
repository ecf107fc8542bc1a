import { beforeAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildRequest } from "../../build.ts";
import packageJson from "../../package.json" with { type: "json" };
import { bundleBrowserModule } from "../../src/bundling/browser-module-bundle.ts";
import { buildRelease } from "../support/build-release.ts";
import { installedPackage, type InstalledPackage } from "../support/npm-package-project.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * `build.ts package` (`make package`; `make build` too) writes the npm package: what `npm pack`
 * makes of the engine, the client, their types, package.json, the README and the licenses, in
 * SHA256SUMS, the same bytes from the same sources.
 */
const TARBALL = `rule-server-${packageJson.version}.tgz`;
let installed: InstalledPackage;
let files: Map<string, string>;

beforeAll(() => {
  installed = installedPackage();
  const listing = Bun.spawnSync(["tar", "tzf", installed.tarball]).stdout.toString().trim().split("\n");
  files = new Map(
    listing.map((path) => [path, Bun.spawnSync(["tar", "xzOf", installed.tarball, path]).stdout.toString()]),
  );
}, 60000);

test("build.ts package writes npm/<name>-<version>.tgz and a SHA256SUMS naming it that sha256sum accepts", () => {
  expect(readdirSync(installed.dist).sort()).toEqual(["SHA256SUMS", "npm"]);
  expect(readdirSync(join(installed.dist, "npm"))).toEqual([TARBALL]);
  const check = Bun.spawnSync(["sha256sum", "--check", "SHA256SUMS"], { cwd: installed.dist });
  expect(check.stdout.toString()).toBe(`npm/${TARBALL}: OK\n`);
  expect(check.exitCode).toBe(0);
});

test("build.ts package into a dist/ a full build filled replaces its own SHA256SUMS line and keeps the others", () => {
  const dist = mkdtempSync(join(tmpdir(), "rule-server-dist-"));
  try {
    const archive = "rule-server-linux-x64.tar.gz";
    writeFileSync(join(dist, archive), "an archive of an earlier build");
    const archiveLine = `${createHash("sha256").update("an archive of an earlier build").digest("hex")}  ${archive}`;
    const staleLine = `${"0".repeat(64)}  npm/${TARBALL}`;
    writeFileSync(join(dist, "SHA256SUMS"), `${staleLine}\n${archiveLine}\n`);
    const build = Bun.spawnSync([process.execPath, join(PROJECT_ROOT, "build.ts"), "package", "--out", dist], {
      cwd: PROJECT_ROOT,
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(build.exitCode).toBe(0);
    const lines = readFileSync(join(dist, "SHA256SUMS"), "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^[0-9a-f]{64}  npm/${TARBALL.replaceAll(".", "\\.")}$`));
    expect(lines[0]).not.toBe(staleLine);
    expect(lines[1]).toBe(archiveLine);
    expect(Bun.spawnSync(["sha256sum", "--check", "SHA256SUMS"], { cwd: dist }).exitCode).toBe(0);
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}, 120000);

test("make package builds the npm package alone; make build ships it with everything else", () => {
  expect(readFileSync(join(import.meta.dir, "..", "..", "Makefile"), "utf8")).toMatch(
    /^package: install\n\t\$\(BUN\) build\.ts package$/m,
  );
  expect(buildRequest(["package"])).toMatchObject({
    npmPackage: true,
    browser: false,
    targets: [],
    image: false,
    vsix: false,
  });
  expect(buildRequest([])).toMatchObject({ npmPackage: true, browser: true, vsix: true });
  expect(buildRequest([]).targets.length).toBe(6);
});

test("the tarball holds the two entry points with their types, package.json, the README and the licenses, nothing else", () => {
  expect([...files.keys()].sort()).toEqual(
    [
      "LICENSE",
      "README.md",
      "ThirdPartyNotices.txt",
      "client.d.ts",
      "client.js",
      "engine.d.ts",
      "engine.js",
      "package.json",
    ].map((file) => `package/${file}`),
  );
  expect(files.get("package/LICENSE")).toBe(readFileSync(join(import.meta.dir, "..", "..", "LICENSE"), "utf8"));
  expect(files.get("package/ThirdPartyNotices.txt")).toContain("decimal.js");
});

test("package.json: the project's name and version, an entry point each for the engine and the client, types, no side effects, engines, license", () => {
  const manifest = JSON.parse(files.get("package/package.json")!);
  expect(manifest).toMatchObject({
    name: "rule-server",
    version: packageJson.version,
    license: "Apache-2.0",
    type: "module",
    sideEffects: false,
    engines: { node: ">=20" },
    types: "./engine.d.ts",
  });
  expect(manifest.exports).toEqual({
    ".": { types: "./engine.d.ts", default: "./engine.js" },
    "./engine": { types: "./engine.d.ts", default: "./engine.js" },
    "./client": { types: "./client.d.ts", default: "./client.js" },
    "./package.json": "./package.json",
  });
  expect(manifest.dependencies).toBeUndefined();
  expect(manifest.private).toBeUndefined();
});

test("engine.js is the browser module itself; client.js reaches the engine only through ./engine.js and holds none of it", async () => {
  expect(files.get("package/engine.js")).toBe(await bundleBrowserModule());
  const client = files.get("package/client.js")!;
  expect([...client.matchAll(/\bimport\s*\(?\s*"([^"]+)"/g)].map((match) => match[1])).toEqual(["./engine.js"]);
  expect(client).not.toMatch(/MANIFEST_INVALID|node:/);
  expect(files.get("package/client.d.ts")).toContain('import type { Ruleset } from "./engine.js";');
});

test("the same sources give the same tarball", () => {
  const again = buildRelease("package");
  try {
    expect(readFileSync(join(again, "npm", TARBALL))).toEqual(readFileSync(installed.tarball));
  } finally {
    rmSync(again, { recursive: true, force: true });
  }
});
