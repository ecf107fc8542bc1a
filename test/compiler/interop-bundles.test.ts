import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileRuleset } from "../../src/compiler/compile-ruleset.ts";
import { RulesetResolver } from "../../src/compiler/resolve/resolve-ruleset.ts";
import { readSource } from "../../src/compiler/source/read-source.ts";
import type { JsonValue } from "../../src/engine/value/json-value.ts";
import { CASES_DIR } from "../support/golden-files.ts";

/**
 * The checksums and bundles another conforming compiler produced for the interop sources
 * (test/cases/interop): ours must be the same checksums and bundles equal as JSON values.
 */
const interop = join(CASES_DIR, "interop");
const read = (file: string): JsonValue => {
  const source = readSource(readFileSync(join(interop, file), "utf8"), file);
  if (!source.ok) throw new Error(`${file}: ${JSON.stringify(source.problems)}`);
  return source.value;
};
const sources: Record<string, string> = {
  "shop.orders.order": "shop/shop-order.ruleset.yaml",
  "library.base": "library/library-base.ruleset.yaml",
  "library.branch.loans": "library/library-loans.ruleset.yaml",
};
const registry = new Map(Object.entries(sources).map(([id, file]) => [id, read(file)]));
const expected = JSON.parse(readFileSync(join(interop, "checksums.json"), "utf8")) as Record<
  string,
  { version: string; checksum: string; bundle: string; clientRules: string[]; serverRules: string[] }
>;
const resolver = new RulesetResolver(registry);

for (const [id, file] of Object.entries(sources)) {
  describe(id, () => {
    const folder = file.split("/")[0]!;
    const loadSchema = (ref: string) => ({ ok: true as const, document: read(join(folder, ref)) });
    const compiled = compileRuleset(registry.get(id)!, { resolver, loadSchema });
    const bundle = compiled.bundle as { manifests: Record<string, { rules: { id: string }[] }> };

    test("has the checksum the other implementation computed", () =>
      expect(compiled.ruleset.checksum).toBe(expected[id]!.checksum));
    test("has a bundle equal as JSON to the other implementation's", () =>
      expect(compiled.bundle).toEqual(JSON.parse(readFileSync(join(interop, expected[id]!.bundle), "utf8"))));
    test("puts the same rules in the client and server manifests", () => {
      expect(bundle.manifests.client!.rules.map((rule) => rule.id)).toEqual(expected[id]!.clientRules);
      expect(bundle.manifests.server!.rules.map((rule) => rule.id)).toEqual(expected[id]!.serverRules);
    });
  });
}
