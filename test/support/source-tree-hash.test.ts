import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sourceTreeHash } from "./source-tree-hash.ts";
import { temporaryDirectory } from "./temp-directory.ts";

/**
 * The key of the shared release build: it changes with anything a build reads or records (a file
 * git sees, tracked or not, the commit, SOURCE_DATE_EPOCH) and with nothing else.
 */
let tree: { path: string; remove: () => void };
const git = (...args: string[]): void => {
  const run = Bun.spawnSync(["git", "-c", "user.name=test", "-c", "user.email=test@example.org", ...args], {
    cwd: tree.path,
    stderr: "pipe",
  });
  if (run.exitCode !== 0) throw new Error(run.stderr.toString());
};
const NO_EPOCH = {};

beforeEach(() => {
  tree = temporaryDirectory({ "build.ts": "build", ".gitignore": "dist/\n" });
  mkdirSync(join(tree.path, "src"));
  writeFileSync(join(tree.path, "src", "main.ts"), "main");
  git("init", "-q");
  git("add", ".");
  git("commit", "-q", "-m", "first");
});
afterEach(() => tree.remove());

test("the same tree gives the same hash, and ignored files (a build's output) change nothing", () => {
  const before = sourceTreeHash(tree.path, NO_EPOCH);
  mkdirSync(join(tree.path, "dist"));
  writeFileSync(join(tree.path, "dist", "rule-server"), "built");
  expect(sourceTreeHash(tree.path, NO_EPOCH)).toBe(before);
});

test("a changed, added, untracked or deleted file changes it", () => {
  const seen = new Set([sourceTreeHash(tree.path, NO_EPOCH)]);
  for (const change of [
    () => writeFileSync(join(tree.path, "src", "main.ts"), "main, changed"),
    () => writeFileSync(join(tree.path, "notes.md"), "untracked"),
    () => rmSync(join(tree.path, "build.ts")),
  ]) {
    change();
    const hash = sourceTreeHash(tree.path, NO_EPOCH);
    expect(seen.has(hash)).toBe(false);
    seen.add(hash);
  }
});

test("a test's content does not count, only whether it is committed, which a build records", () => {
  mkdirSync(join(tree.path, "test"));
  writeFileSync(join(tree.path, "test", "build.test.ts"), "a test");
  git("add", ".");
  git("commit", "-q", "-m", "a test");
  const committed = sourceTreeHash(tree.path, NO_EPOCH);
  writeFileSync(join(tree.path, "test", "build.test.ts"), "a test, edited");
  const edited = sourceTreeHash(tree.path, NO_EPOCH);
  expect(edited).not.toBe(committed);
  writeFileSync(join(tree.path, "test", "build.test.ts"), "a test, edited again");
  expect(sourceTreeHash(tree.path, NO_EPOCH)).toBe(edited);
  writeFileSync(join(tree.path, "test", "other.test.ts"), "another test");
  expect(sourceTreeHash(tree.path, NO_EPOCH)).not.toBe(edited);
});

test("a new commit of the same files, or SOURCE_DATE_EPOCH, changes it", () => {
  const before = sourceTreeHash(tree.path, NO_EPOCH);
  expect(sourceTreeHash(tree.path, { SOURCE_DATE_EPOCH: "1" })).not.toBe(before);
  git("commit", "-q", "--allow-empty", "-m", "second");
  expect(sourceTreeHash(tree.path, NO_EPOCH)).not.toBe(before);
});

test("outside git, the build's inputs count and other files do not", () => {
  rmSync(join(tree.path, ".git"), { recursive: true });
  const before = sourceTreeHash(tree.path, NO_EPOCH);
  writeFileSync(join(tree.path, "notes.md"), "not read by the build");
  mkdirSync(join(tree.path, "src", "dist"));
  writeFileSync(join(tree.path, "src", "dist", "built.js"), "build output");
  expect(sourceTreeHash(tree.path, NO_EPOCH)).toBe(before);
  writeFileSync(join(tree.path, "src", "main.ts"), "main, changed");
  expect(sourceTreeHash(tree.path, NO_EPOCH)).not.toBe(before);
});
