import { afterAll, expect, test } from "bun:test";
import { lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ArchiveEntry } from "../../src/packaging/archive-entry.ts";
import { PackagingError } from "../../src/packaging/packaging-error.ts";
import { tarArchive } from "../../src/packaging/tar-writer.ts";

/** The tar writer's archives read back with GNU tar, the same for the same entries in any order. */
const work = mkdtempSync(join(tmpdir(), "rule-server-tar-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const LONG = `${"deep/".repeat(30)}file.txt`;
const ENTRIES: ArchiveEntry[] = [
  { kind: "file", path: "bin/tool", mode: 0o755, data: text("#!/bin/sh\necho hi\n") },
  { kind: "file", path: "etc/config", mode: 0o644, data: text("x".repeat(1000)) },
  { kind: "symlink", path: "lib", target: "usr/lib" },
  { kind: "directory", path: "home/user", mode: 0o700, uid: 65532, gid: 65532 },
  { kind: "directory", path: "tmp", mode: 0o1777 },
  { kind: "file", path: LONG, mode: 0o600, data: text("far down") },
];
const MTIME = 1700000000;

function tar(...args: string[]): string {
  const run = Bun.spawnSync(["tar", ...args], { cwd: work, env: { TZ: "UTC", LC_ALL: "C", PATH: "/usr/bin:/bin" } });
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
  return run.stdout.toString();
}

test("GNU tar lists every entry, parents added, in sorted order with owners, modes and the one time", () => {
  writeFileSync(join(work, "a.tar"), tarArchive(ENTRIES, MTIME));
  const lines = tar("--numeric-owner", "-tvf", "a.tar").trim().split("\n");
  expect(lines.map((line) => line.split(/\s+/).slice(5).join(" "))).toEqual([
    "bin/",
    "bin/tool",
    "deep/",
    ...Array.from({ length: 29 }, (_, index) => `${"deep/".repeat(index + 2)}`),
    LONG,
    "etc/",
    "etc/config",
    "home/",
    "home/user/",
    "lib -> usr/lib",
    "tmp/",
  ]);
  const line = (path: string): string => lines.find((candidate) => candidate.endsWith(` ${path}`))!;
  expect(line("bin/tool")).toStartWith("-rwxr-xr-x 0/0 ");
  expect(line("home/user/")).toStartWith("drwx------ 65532/65532 ");
  expect(line("tmp/")).toStartWith("drwxrwxrwt 0/0 ");
  expect(line("bin/tool")).toContain("2023-11-14 22:13");
});

test("contents and links unpack as written, a path over 100 bytes too", () => {
  tar("-xf", "a.tar", "-C", work);
  expect(readFileSync(join(work, "bin/tool"), "utf8")).toBe("#!/bin/sh\necho hi\n");
  expect(readFileSync(join(work, "etc/config"), "utf8")).toBe("x".repeat(1000));
  expect(readFileSync(join(work, LONG), "utf8")).toBe("far down");
  expect(lstatSync(join(work, "lib")).isSymbolicLink()).toBe(true);
  expect(readlinkSync(join(work, "lib"))).toBe("usr/lib");
});

test("the same entries in another order give the same bytes", () => {
  expect(
    Buffer.compare(Buffer.from(tarArchive([...ENTRIES].reverse(), MTIME)), Buffer.from(tarArchive(ENTRIES, MTIME))),
  ).toBe(0);
});

test("refuses what it cannot write faithfully, with a code", () => {
  const code = (entries: ArchiveEntry[]): string | undefined => {
    try {
      tarArchive(entries, MTIME);
    } catch (error) {
      return error instanceof PackagingError ? error.code : "not a PackagingError";
    }
    return undefined;
  };
  expect(code([{ kind: "file", path: "x".repeat(101), mode: 0o644, data: text("") }])).toBe("ARCHIVE_PATH_TOO_LONG");
  expect(code([{ kind: "file", path: "../escape", mode: 0o644, data: text("") }])).toBe("ARCHIVE_PATH_INVALID");
  expect(code([{ kind: "file", path: "/absolute", mode: 0o644, data: text("") }])).toBe("ARCHIVE_PATH_INVALID");
  expect(
    code([
      { kind: "file", path: "twice", mode: 0o644, data: text("a") },
      { kind: "file", path: "twice", mode: 0o644, data: text("b") },
    ]),
  ).toBe("ARCHIVE_ENTRY_DUPLICATE");
  expect(
    code([
      { kind: "symlink", path: "lib", target: "usr/lib" },
      { kind: "file", path: "lib/x", mode: 0o644, data: text("") },
    ]),
  ).toBe("ARCHIVE_ENTRY_DUPLICATE");
});
