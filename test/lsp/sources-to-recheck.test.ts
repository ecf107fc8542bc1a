import { expect, test } from "bun:test";
import type { JsonValue } from "../../src/engine/value/json-value.ts";
import { sourcesToRecheck } from "../../src/lsp/sources-to-recheck.ts";
import type { SourceFile } from "../../src/workspace/files/source-documents.ts";

/**
 * Which sources an edit can change the report of: the edited one and those that extend it, found
 * by id, the ids it had and has; when the ids of the directory change, those naming a parent that
 * is not there too (the problem suggests the nearest id). A source read again from the same text is
 * the same object, so "unchanged" is identity here.
 */
const source = (file: string, id: string | undefined, parents: readonly unknown[] = []): SourceFile => ({
  file,
  id,
  document: { metadata: { id: id ?? null }, extends: parents.map((parent) => ({ ruleset: parent })) } as JsonValue,
  problems: [],
});
const unparsed = (file: string, id: string | undefined): SourceFile => ({
  file,
  id,
  document: undefined,
  problems: [{ code: "SOURCE_INVALID", message: "does not parse", file }],
});
const byFile = (sources: readonly SourceFile[]): Map<string, SourceFile> =>
  new Map(sources.map((entry) => [entry.file, entry]));
const recheckedAfter = (before: readonly SourceFile[], now: readonly SourceFile[]): string[] =>
  [...sourcesToRecheck(byFile(before), now)].sort();

const base = source("base", "t.base");
const child = source("child", "t.child", ["t.base"]);
const grandchild = source("grandchild", "t.grandchild", ["t.child"]);
const unrelated = source("unrelated", "t.unrelated");
const family = [base, child, grandchild, unrelated];

test("nothing changed: nothing is checked again", () => {
  expect(recheckedAfter(family, family)).toEqual([]);
});

test("an edited leaf is checked again alone", () => {
  expect(recheckedAfter(family, [base, child, grandchild, source("unrelated", "t.unrelated")])).toEqual(["unrelated"]);
});

test("an edited parent is checked again with its children and theirs, and no other ruleset", () => {
  expect(recheckedAfter(family, [source("base", "t.base"), child, grandchild, unrelated])).toEqual([
    "base",
    "child",
    "grandchild",
  ]);
});

test("a ruleset that takes another id: the children of the id it had and of the id it has are checked again", () => {
  const renamed = [base, child, grandchild, source("unrelated", "t.child")];
  expect(recheckedAfter(family, renamed)).toEqual(["grandchild", "unrelated"]);
  expect(recheckedAfter(renamed, family)).toEqual(["grandchild", "unrelated"]);
});

test("a ruleset that no longer parses still names its id: its children are checked again (they are told why)", () => {
  expect(recheckedAfter(family, [unparsed("base", "t.base"), child, grandchild, unrelated])).toEqual([
    "base",
    "child",
    "grandchild",
  ]);
});

test("a ruleset removed or added: the rulesets extending its id are checked again", () => {
  expect(recheckedAfter(family, [child, grandchild, unrelated])).toEqual(["child", "grandchild"]);
  expect(recheckedAfter([child, grandchild, unrelated], family)).toEqual(["base", "child", "grandchild"]);
});

test("when the ids of the directory change, a ruleset naming a parent not there is checked again, with its children", () => {
  const orphan = source("orphan", "t.orphan", ["t.missing"]);
  const orphansChild = source("orphans-child", "t.orphans-child", ["t.orphan"]);
  const nameless = source("nameless", "t.nameless", [42]);
  const before = [...family, orphan, orphansChild, nameless];
  expect(recheckedAfter(before, [...before, source("new", "t.new")])).toEqual([
    "nameless",
    "new",
    "orphan",
    "orphans-child",
  ]);
  // The same ids: a ruleset not there is not named in another way.
  expect(recheckedAfter(before, [source("base", "t.base"), ...before.slice(1)])).toEqual([
    "base",
    "child",
    "grandchild",
  ]);
});

test("a cycle of extends ends", () => {
  const a = source("a", "t.a", ["t.b"]);
  const b = source("b", "t.b", ["t.a"]);
  expect(recheckedAfter([a, b, unrelated], [source("a", "t.a", ["t.b"]), b, unrelated])).toEqual(["a", "b"]);
});
