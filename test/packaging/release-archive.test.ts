import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import packageJson from "../../package.json" with { type: "json" };
import { buildRelease, releaseBuild } from "../support/build-release.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * The linux-x64 release archive as a user gets it: the test run's build, held against a fresh one
 * (the same bytes both times), unpacked with GNU tar, and held against the README's table of what
 * is in it.
 */
let shared: string;
let fresh: string;
let unpacked: string;
const DIRECTORY = `rule-server-${packageJson.version}-linux-x64`;
const ARCHIVE = "rule-server-linux-x64.tar.gz";

beforeAll(() => {
  shared = releaseBuild("linux-x64");
  fresh = buildRelease("linux-x64");
  unpacked = mkdtempSync(join(tmpdir(), "rule-server-unpacked-"));
  const untar = Bun.spawnSync(["tar", "-xzf", join(shared, ARCHIVE), "-C", unpacked]);
  if (untar.exitCode !== 0) throw new Error(untar.stderr.toString());
}, 180000);
afterAll(() => {
  for (const directory of [fresh, unpacked]) if (directory) rmSync(directory, { recursive: true, force: true });
});

/** The first column of the README's "Release archives" table: paths, a directory ending in `/`. */
function documentedPaths(): string[] {
  const readme = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
  const start = readme.indexOf("| Path in the archive |", readme.indexOf("## Release archives"));
  const table = readme.slice(start, readme.indexOf("\n\n", start));
  return [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]!);
}

function filesUnder(directory: string, prefix = ""): string[] {
  return readdirSync(join(directory, prefix), { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? filesUnder(directory, `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
    )
    .sort();
}

test("a fresh build gives the same archive, executable and SHA256SUMS as the shared one, byte for byte", () => {
  for (const name of [ARCHIVE, "rule-server-linux-x64", "SHA256SUMS"]) {
    expect(Buffer.compare(readFileSync(join(shared, name)), readFileSync(join(fresh, name)))).toBe(0);
  }
});

test("the executable names no path of the checkout it was built in: another clone of the commit builds the same bytes", () => {
  const executable = readFileSync(join(shared, "rule-server-linux-x64"));
  expect(executable.includes(PROJECT_ROOT)).toBe(false);
  expect(executable.includes("node_modules/re2-wasm/build/wasm")).toBe(true);
});

test("SHA256SUMS covers the executable and the archive, and sha256sum agrees", () => {
  const sums = readFileSync(join(shared, "SHA256SUMS"), "utf8");
  expect(
    sums
      .trim()
      .split("\n")
      .map((line) => line.split("  ")[1]),
  ).toEqual(["rule-server-linux-x64", ARCHIVE]);
  const check = Bun.spawnSync(["sha256sum", "--check", "SHA256SUMS"], { cwd: shared });
  expect(check.stdout.toString()).toBe(`rule-server-linux-x64: OK\n${ARCHIVE}: OK\n`);
});

test("it unpacks into one directory holding exactly what the README's table lists", () => {
  expect(readdirSync(unpacked)).toEqual([DIRECTORY]);
  const documented = documentedPaths();
  expect(documented).toEqual([
    "rule-server",
    "README.md",
    "LICENSE",
    "deploy/systemd/rule-server.service",
    "deploy/kubernetes/rule-server.yaml",
    "deploy/kubernetes/rule-server-git-sync.yaml",
    "deploy/kubernetes/rule-server-oci.yaml",
    "deploy/ci/release-rules.github-actions.yml",
    "rules/",
    "BUILD-INFO.json",
  ]);
  const files = filesUnder(join(unpacked, DIRECTORY));
  for (const file of files)
    expect(documented.some((path) => path === file || (path.endsWith("/") && file.startsWith(path)))).toBe(true);
  for (const path of documented)
    expect(files.some((file) => file === path || (path.endsWith("/") && file.startsWith(path)))).toBe(true);
  // The example rules are all there, as in the repository.
  expect(files.filter((file) => file.startsWith("rules/"))).toEqual(
    filesUnder(join(PROJECT_ROOT, "rules")).map((file) => `rules/${file}`),
  );
  for (const file of files.filter((name) => name !== "rule-server" && name !== "BUILD-INFO.json")) {
    expect(Buffer.compare(readFileSync(join(unpacked, DIRECTORY, file)), readFileSync(join(PROJECT_ROOT, file)))).toBe(
      0,
    );
  }
});

test("BUILD-INFO.json names the version and commit, and says when the tree had uncommitted changes", () => {
  const info = JSON.parse(readFileSync(join(unpacked, DIRECTORY, "BUILD-INFO.json"), "utf8"));
  const git = (...args: string[]): string =>
    Bun.spawnSync(["git", ...args], { cwd: PROJECT_ROOT })
      .stdout.toString()
      .trim();
  const uncommitted = git("status", "--porcelain=v1", "--untracked-files=all");
  const commit = git("rev-parse", "HEAD");
  expect(info.version).toBe(packageJson.version);
  expect(info.sourceDate).toBe(Number(git("log", "-1", "--format=%ct")));
  if (uncommitted === "") {
    expect(info).toEqual({ version: packageJson.version, revision: commit, sourceDate: info.sourceDate });
  } else {
    expect(info.revision).toBe(`${commit}-dirty`);
    expect(info.uncommitted.length).toBe(uncommitted.split("\n").length);
  }
});

test("entries are owned by 0, with fixed modes and the last commit's time", () => {
  const listing = Bun.spawnSync(["tar", "--numeric-owner", "--full-time", "-tvzf", join(shared, ARCHIVE)], {
    env: { TZ: "UTC", PATH: "/usr/bin:/bin" },
  })
    .stdout.toString()
    .trim()
    .split("\n");
  const committed = Number(
    Bun.spawnSync(["git", "log", "-1", "--format=%ct"], { cwd: PROJECT_ROOT }).stdout.toString().trim(),
  );
  const time = new Date(committed * 1000).toISOString().slice(0, 19).replace("T", " ");
  for (const line of listing) {
    const [mode, owner, , day, clock, path] = line.split(/\s+/);
    expect(owner).toBe("0/0");
    expect(`${day} ${clock}`).toBe(time);
    expect(mode).toBe(
      path!.endsWith("/") || path!.endsWith("/rule-server")
        ? path!.endsWith("/")
          ? "drwxr-xr-x"
          : "-rwxr-xr-x"
        : "-rw-r--r--",
    );
  }
  expect(statSync(join(unpacked, DIRECTORY, "rule-server")).mode & 0o777).toBe(0o755);
});

test("the unpacked executable runs and passes its own example rules", () => {
  const check = Bun.spawnSync(["./rule-server", "check", "rules"], {
    cwd: join(unpacked, DIRECTORY),
    env: { PATH: "/usr/bin:/bin" },
  });
  expect(check.stdout.toString()).toContain("OK: 3 file(s), 0 problem(s)");
  expect(check.exitCode).toBe(0);
});
