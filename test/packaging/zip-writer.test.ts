import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ArchiveEntry } from "../../src/packaging/archive-entry.ts";
import { PackagingError } from "../../src/packaging/packaging-error.ts";
import { zipArchive } from "../../src/packaging/zip-writer.ts";

/** The zip writer's archives read back with Info-ZIP's unzip, the same for the same entries in any order. */
const work = mkdtempSync(join(tmpdir(), "rule-server-zip-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
const ENTRIES: ArchiveEntry[] = [
  { kind: "file", path: "pkg/rule-server.exe", mode: 0o755, data: text("MZ".padEnd(5000, "z")) },
  { kind: "file", path: "pkg/README.md", mode: 0o644, data: text("# read me\n") },
  { kind: "file", path: "pkg/rules/ä.yaml", mode: 0o644, data: text("a: 1\n") },
];
const MTIME = 1700000000;

function unzip(...args: string[]): string {
  const run = Bun.spawnSync(["unzip", ...args], {
    cwd: work,
    env: { TZ: "UTC", LC_ALL: "C.UTF-8", PATH: "/usr/bin:/bin" },
  });
  if (run.exitCode !== 0) throw new Error(run.stdout.toString() + run.stderr.toString());
  return run.stdout.toString();
}

test("unzip finds it intact and lists every entry, parents added, sorted, with Unix modes and the one time", () => {
  writeFileSync(join(work, "a.zip"), zipArchive(ENTRIES, MTIME));
  expect(unzip("-tq", "a.zip")).toContain("No errors detected");
  const lines = unzip("-Z", "-l", "a.zip")
    .split("\n")
    .filter((line) => /^[-d]r/.test(line));
  expect(lines.map((line) => line.split(/\s+/).at(-1))).toEqual([
    "pkg/",
    "pkg/README.md",
    "pkg/rule-server.exe",
    "pkg/rules/",
    "pkg/rules/ä.yaml",
  ]);
  expect(lines.find((line) => line.endsWith("rule-server.exe"))).toStartWith("-rwxr-xr-x");
  expect(lines.find((line) => line.endsWith("README.md"))).toStartWith("-rw-r--r--");
  expect(lines[0]).toContain("23-Nov-14 22:13");
});

test("contents unpack as written, the executable bit kept", () => {
  unzip("-q", "a.zip", "-d", work);
  expect(readFileSync(join(work, "pkg/rule-server.exe"), "utf8")).toBe("MZ".padEnd(5000, "z"));
  expect(readFileSync(join(work, "pkg/rules/ä.yaml"), "utf8")).toBe("a: 1\n");
  expect(statSync(join(work, "pkg/rule-server.exe")).mode & 0o777).toBe(0o755);
});

test("the same entries in another order give the same bytes", () => {
  expect(
    Buffer.compare(Buffer.from(zipArchive([...ENTRIES].reverse(), MTIME)), Buffer.from(zipArchive(ENTRIES, MTIME))),
  ).toBe(0);
});

test("a symbolic link is refused with a code", () => {
  let thrown: unknown;
  try {
    zipArchive([{ kind: "symlink", path: "lib", target: "usr/lib" }], MTIME);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(PackagingError);
  expect((thrown as PackagingError).code).toBe("ZIP_SYMLINK_UNSUPPORTED");
});
