import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { ruleFilesOf } from "../../../src/workspace/files/rule-files-of-directory.ts";
import { temporaryDirectory } from "../../support/temp-directory.ts";

/** One listing of a rules directory, shared by the server, `check` and `compile`. */
test("files are listed by kind, sorted, with full paths; dot entries, folders and vanished links are left out", () => {
  const dir = temporaryDirectory({
    "b.ruleset.yaml": "",
    "a.ruleset.json": "",
    "x.bundle.json": "",
    "cache-policy.yaml": "",
    "notes.txt": "",
    ".hidden.ruleset.yaml": "",
  });
  try {
    mkdirSync(join(dir.path, "folder.ruleset.yaml"));
    mkdirSync(join(dir.path, "..data"));
    symlinkSync(join(dir.path, "missing-target"), join(dir.path, "dangling.ruleset.yaml"));
    symlinkSync(join(dir.path, "x.bundle.json"), join(dir.path, "y.bundle.json"));
    const at = (name: string): string => join(dir.path, name);
    expect(ruleFilesOf(dir.path)).toEqual({
      source: [at("a.ruleset.json"), at("b.ruleset.yaml")],
      bundle: [at("x.bundle.json"), at("y.bundle.json")],
      "cache-policy": [at("cache-policy.yaml")],
      other: [at("notes.txt")],
    });
  } finally {
    dir.remove();
  }
});

test("a directory that cannot be read is an error, not an empty listing", () => {
  expect(() => ruleFilesOf(join(import.meta.dir, "no-such-directory"))).toThrow();
});
