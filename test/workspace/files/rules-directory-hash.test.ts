import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rulesDirectoryHash } from "../../../src/workspace/files/rules-directory-hash.ts";
import { temporaryDirectory } from "../../support/temp-directory.ts";

/** What changes the hash a scheduled check compares, and what does not. */
test("the hash changes with a file's content and name, and not with a dot-file at any depth", () => {
  const dir = temporaryDirectory({ "a.ruleset.yaml": "one" });
  try {
    const first = rulesDirectoryHash(dir.path);
    expect(rulesDirectoryHash(dir.path)).toBe(first);
    writeFileSync(join(dir.path, ".hidden"), "x");
    mkdirSync(join(dir.path, "..data"));
    writeFileSync(join(dir.path, "..data", "b"), "y");
    expect(rulesDirectoryHash(dir.path)).toBe(first);
    mkdirSync(join(dir.path, "sub"));
    writeFileSync(join(dir.path, "sub", ".also-hidden"), "z");
    const withSub = rulesDirectoryHash(dir.path);
    writeFileSync(join(dir.path, "a.ruleset.yaml"), "two");
    expect(rulesDirectoryHash(dir.path)).not.toBe(withSub);
    writeFileSync(join(dir.path, "sub", "c.json"), "{}");
    expect(rulesDirectoryHash(dir.path)).not.toBe(withSub);
  } finally {
    dir.remove();
  }
});

test("files reached through symbolic links (a ConfigMap layout) are hashed by content", () => {
  const dir = temporaryDirectory({});
  try {
    mkdirSync(join(dir.path, "..2026_01"));
    writeFileSync(join(dir.path, "..2026_01", "a.ruleset.yaml"), "one");
    symlinkSync("..2026_01", join(dir.path, "..data"));
    symlinkSync("..data/a.ruleset.yaml", join(dir.path, "a.ruleset.yaml"));
    const before = rulesDirectoryHash(dir.path);
    writeFileSync(join(dir.path, "..2026_01", "a.ruleset.yaml"), "two");
    expect(rulesDirectoryHash(dir.path)).not.toBe(before);
  } finally {
    dir.remove();
  }
});
