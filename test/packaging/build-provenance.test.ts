import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildProvenance } from "../../src/packaging/build-provenance.ts";
import { PackagingError } from "../../src/packaging/packaging-error.ts";

/** The time and commit a build stamps come from the sources, never from the clock. */
const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A repository of its own with one commit at a fixed time, so the tests do not depend on this clone's state. */
function repository(): { root: string; git: (...args: string[]) => string } {
  const root = mkdtempSync(join(tmpdir(), "rule-server-provenance-"));
  made.push(root);
  const env = {
    ...process.env,
    GIT_AUTHOR_DATE: "1700000000 +0000",
    GIT_COMMITTER_DATE: "1700000000 +0000",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@e",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@e",
  };
  const git = (...args: string[]): string => {
    const run = Bun.spawnSync(["git", ...args], { cwd: root, env });
    if (run.exitCode !== 0) throw new Error(run.stderr.toString());
    return run.stdout.toString().trim();
  };
  git("init", "-q");
  writeFileSync(join(root, "kept.txt"), "one\n");
  writeFileSync(join(root, ".gitignore"), "ignored/\n");
  git("add", ".");
  git("commit", "-q", "-m", "first");
  return { root, git };
}

test("a clean checkout: the last commit's time and the commit, nothing uncommitted", () => {
  const { root, git } = repository();
  expect(buildProvenance(root, {})).toEqual({
    sourceDate: 1700000000,
    revision: git("rev-parse", "HEAD"),
    uncommitted: [],
  });
});

test("uncommitted changes: the revision says -dirty and every changed or untracked path is listed, ignored ones not", () => {
  const { root, git } = repository();
  writeFileSync(join(root, "kept.txt"), "two\n");
  writeFileSync(join(root, "new.txt"), "new\n");
  mkdirSync(join(root, "ignored"));
  writeFileSync(join(root, "ignored", "x"), "x\n");
  expect(buildProvenance(root, {})).toEqual({
    sourceDate: 1700000000,
    revision: `${git("rev-parse", "HEAD")}-dirty`,
    uncommitted: ["kept.txt", "new.txt"],
  });
});

test("SOURCE_DATE_EPOCH wins when set, and must be whole seconds", () => {
  const { root } = repository();
  expect(buildProvenance(root, { SOURCE_DATE_EPOCH: "1600000000" }).sourceDate).toBe(1600000000);
  expect(() => buildProvenance(root, { SOURCE_DATE_EPOCH: "yesterday" })).toThrow(PackagingError);
});

test("outside a git checkout: time 0 and no commit, still the same every time", () => {
  const root = mkdtempSync(join(tmpdir(), "rule-server-provenance-"));
  made.push(root);
  expect(buildProvenance(root, {})).toEqual({ sourceDate: 0, revision: undefined, uncommitted: [] });
});
