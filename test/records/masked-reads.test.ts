import { expect, test } from "bun:test";
import { rulesReadingMasked } from "../../src/records/replay/masked-reads.ts";

/** Which rules read a masked member of the request: member by member, escapes of JSON Pointers undone. */
const rule = (id: string, path: string) => ({ id, kind: "validation", assert: { op: "exists", args: [{ var: path }] } });
const manifest = { rules: [rule("whole", "data.debtor"), rule("inside", "data.debtor.iban"), rule("beside", "data.debtorName"), rule("slash", "data.a/b"), rule("tilde", "data.x~y"), rule("actor", "actor.id")] };
const ids = manifest.rules.map((entry) => entry.id);

test("a var leading to or into a masked member reads it; a var beside it does not", () => {
  expect(rulesReadingMasked(manifest, ids, ["/data/debtor/iban"])).toEqual(["whole", "inside"]);
  expect(rulesReadingMasked(manifest, ids, ["/data/debtor"])).toEqual(["whole", "inside"]);
  expect(rulesReadingMasked(manifest, ids, ["/actor/id"])).toEqual(["actor"]);
});

test("members whose names hold / or ~ are matched through the pointer's escapes", () => {
  expect(rulesReadingMasked(manifest, ids, ["/data/a~1b"])).toEqual(["slash"]);
  expect(rulesReadingMasked(manifest, ids, ["/data/x~0y"])).toEqual(["tilde"]);
  expect(rulesReadingMasked(manifest, ids, ["/data/a/b"])).toEqual([]);
});

test("only the rules asked about are looked at", () => {
  expect(rulesReadingMasked(manifest, ["beside", "inside"], ["/data/debtor"])).toEqual(["inside"]);
});
