import { expect, test } from "bun:test";
import { NO_CUSTOM_OPERATORS } from "../../../src/engine/expression/custom-operators.ts";
import { loadSnapshot } from "../../../src/server/snapshot/rules-snapshot.ts";
import { imageOf, snapshotOf } from "../../../src/server/supervisor/rules-image.ts";
import { rulesDirectory } from "../../support/rules-directory.ts";

/** A serving process builds, from the supervisor's image of the rules, the very snapshot the supervisor loaded. */
test("the snapshot built from an image (sent as JSON) serves the same list, manifests, bundles, rules, cache policy and load time", () => {
  const rules = rulesDirectory({
    "cache-policy.yaml": "default: { mode: ttl, maxAge: 60 }\nrulesets:\n  shop.orders.order: { mode: permanent }\n",
  });
  try {
    const loaded = loadSnapshot(rules.path, NO_CUSTOM_OPERATORS, 7, new Date("2026-11-20T10:00:00Z"));
    const rebuilt = snapshotOf(JSON.parse(JSON.stringify(imageOf(loaded))), NO_CUSTOM_OPERATORS);
    expect(rebuilt.generation).toBe(7);
    expect(rebuilt.loadedAt).toBe(loaded.loadedAt);
    expect(rebuilt.entries).toEqual(loaded.entries);
    expect(new TextDecoder().decode(rebuilt.listBody.identity)).toBe(
      new TextDecoder().decode(loaded.listBody.identity),
    );
    expect([...rebuilt.rulesets.keys()].sort()).toEqual([...loaded.rulesets.keys()].sort());
    for (const [id, served] of loaded.rulesets) {
      const other = rebuilt.rulesets.get(id)!;
      expect(other.listing).toEqual(served.listing);
      expect(other.ruleset.checksum).toBe(served.ruleset.checksum);
      for (const channel of ["server", "client"] as const)
        expect(other.ruleset.manifest(channel)).toEqual(served.ruleset.manifest(channel));
      expect([...other.rules.keys()]).toEqual([...served.rules.keys()]);
      for (const pinned of [true, false])
        expect(rebuilt.cachePolicy.cacheControl(id, pinned)).toBe(loaded.cachePolicy.cacheControl(id, pinned));
    }
    expect(rebuilt.missingOperators).toEqual(loaded.missingOperators);
  } finally {
    rules.remove();
  }
});
