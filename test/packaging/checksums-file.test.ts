import { afterEach, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checksumsText, writeChecksums } from "../../src/packaging/checksums-file.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/**
 * dist/SHA256SUMS after a build of some artifacts (`make package`, `build.ts vsix`, one target):
 * their lines replaced or added, every other artifact's line kept, and `sha256sum --check` content.
 */
const digest = (text: string): string => createHash("sha256").update(text).digest("hex");
let dist: { path: string; remove: () => void } | undefined;
afterEach(() => dist?.remove());

/** A dist/ as `make build` leaves it: the files, and SHA256SUMS over them all. */
function builtDist(files: Record<string, string>): string {
  dist = temporaryDirectory({});
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dist.path, name, ".."), { recursive: true });
    writeFileSync(join(dist.path, name), text);
  }
  const sums = Object.keys(files)
    .sort()
    .map((name) => `${digest(files[name]!)}  ${name}\n`)
    .join("");
  writeFileSync(join(dist.path, "SHA256SUMS"), sums);
  return dist.path;
}

function sha256sumCheck(directory: string): string {
  const check = Bun.spawnSync(["sha256sum", "--check", "SHA256SUMS"], { cwd: directory });
  expect(check.exitCode).toBe(0);
  return check.stdout.toString();
}

const FULL_BUILD = {
  "rule-server-linux-x64": "executable",
  "rule-server-linux-x64.tar.gz": "archive",
  "rule-server-windows-x64.exe": "windows executable",
  "rule-server-windows-x64.zip": "windows archive",
  "rule-server-1.0.0.vsix": "extension",
  "npm/rule-server-1.0.0.tgz": "package, first build",
};

test("the package rebuilt: its line is replaced, every other line kept as it was", () => {
  const path = builtDist(FULL_BUILD);
  const before = readFileSync(join(path, "SHA256SUMS"), "utf8").split("\n");
  writeFileSync(join(path, "npm/rule-server-1.0.0.tgz"), "package, second build");
  writeChecksums(path, [join(path, "npm/rule-server-1.0.0.tgz")]);
  const after = readFileSync(join(path, "SHA256SUMS"), "utf8").split("\n");
  expect(after).toHaveLength(before.length);
  expect(after.filter((line) => !line.endsWith("npm/rule-server-1.0.0.tgz"))).toEqual(
    before.filter((line) => !line.endsWith("npm/rule-server-1.0.0.tgz")),
  );
  expect(after).toContain(`${digest("package, second build")}  npm/rule-server-1.0.0.tgz`);
  expect(sha256sumCheck(path).trim().split("\n")).toHaveLength(Object.keys(FULL_BUILD).length);
});

test("a file new to SHA256SUMS is added in name order", () => {
  const path = builtDist(FULL_BUILD);
  writeFileSync(join(path, "rule-server-darwin-arm64"), "mac executable");
  writeChecksums(path, [join(path, "rule-server-darwin-arm64")]);
  const names = readFileSync(join(path, "SHA256SUMS"), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => line.slice(66));
  expect(names).toEqual([...Object.keys(FULL_BUILD), "rule-server-darwin-arm64"].sort());
  sha256sumCheck(path);
});

test("a line whose file is gone is dropped: sha256sum --check would fail on it", () => {
  const path = builtDist(FULL_BUILD);
  rmSync(join(path, "rule-server-1.0.0.vsix"));
  writeChecksums(path, [join(path, "npm/rule-server-1.0.0.tgz")]);
  expect(readFileSync(join(path, "SHA256SUMS"), "utf8")).not.toContain("rule-server-1.0.0.vsix");
  sha256sumCheck(path);
});

test("without a SHA256SUMS, only the files written", () => {
  dist = temporaryDirectory({ "a.tgz": "a" });
  writeChecksums(dist.path, [join(dist.path, "a.tgz")]);
  expect(readFileSync(join(dist.path, "SHA256SUMS"), "utf8")).toBe(`${digest("a")}  a.tgz\n`);
});

test("binary-mode lines are read, lines that are not checksums dropped", () => {
  const text = checksumsText(`${digest("b")} *b.zip\nnot a line\n\n`, new Map([["a.tgz", digest("a")]]), () => true);
  expect(text).toBe(`${digest("a")}  a.tgz\n${digest("b")}  b.zip\n`);
});
