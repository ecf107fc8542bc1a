import { afterEach, expect, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NO_CUSTOM_OPERATORS } from "../../../src/engine/expression/custom-operators.ts";
import { loadRulesAsText, type RulesSnapshot, snapshotFromText } from "../../../src/server/snapshot/rules-snapshot.ts";
import { loadRulesDirectory } from "../../../src/workspace/load-rules-directory.ts";
import { ReloadCache } from "../../../src/workspace/reload-cache.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";
import { temporaryDirectory } from "../../support/temp-directory.ts";

/**
 * A server's snapshot is made in two steps, with the load's garbage collected between them: the
 * rulesets as bundle JSON, then the snapshot read from it. It serves what the load compiled, and
 * the reload cache keeps the snapshot's own objects, so that a reload reuses them.
 */
const removals: (() => void)[] = [];
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
});

function rulesCopy(): string {
  const directory = temporaryDirectory({});
  removals.push(() => directory.remove());
  cpSync(join(PROJECT_ROOT, "rules"), directory.path, { recursive: true });
  return directory.path;
}

const snapshot = (directory: string, cache?: ReloadCache): RulesSnapshot =>
  snapshotFromText(
    loadRulesAsText(directory, NO_CUSTOM_OPERATORS, false, cache),
    NO_CUSTOM_OPERATORS,
    1,
    new Date(),
    cache,
  );

test("the snapshot serves the bundles the load compiled, as new objects, with the sources' listings", () => {
  const directory = rulesCopy();
  const loaded = loadRulesDirectory(directory, { operators: NO_CUSTOM_OPERATORS });
  const served = snapshot(directory);
  expect([...served.rulesets.keys()].sort()).toEqual(loaded.rulesets.map((entry) => entry.ruleset.id).sort());
  for (const entry of loaded.rulesets) {
    const id = entry.ruleset.id;
    expect(served.bundles.get(id)).toEqual(entry.bundle);
    expect(served.bundles.get(id)).not.toBe(entry.bundle);
    expect(served.rulesets.get(id)!.ruleset.checksum).toBe(entry.ruleset.checksum);
  }
  expect(served.rulesets.get("acme.payments.transfers")!.entry.title).toBe("Online banking transfers");
});

test("a reload with a cache reuses the snapshot's own rulesets for what did not change, and compiles the rest", () => {
  const directory = rulesCopy();
  const cache = new ReloadCache();
  const first = snapshot(directory, cache);
  const file = join(directory, "acme-payments-transfers.ruleset.yaml");
  writeFileSync(file, readFileSync(file, "utf8").replace("version: 1.1.0", "version: 1.1.1"));
  const second = snapshot(directory, cache);
  expect(second.rulesets.get("acme.customers.onboarding")!.ruleset).toBe(
    first.rulesets.get("acme.customers.onboarding")!.ruleset,
  );
  expect(second.bundles.get("acme.customers.onboarding")).toBe(first.bundles.get("acme.customers.onboarding")!);
  expect(second.rulesets.get("acme.payments.transfers")!.ruleset.version).toBe("1.1.1");
  // Nothing changed since: everything is reused, the changed file's new ruleset too.
  const third = snapshot(directory, cache);
  for (const [id, served] of second.rulesets) expect(third.rulesets.get(id)!.ruleset).toBe(served.ruleset);
});

test("with a cache, a ruleset compiled at this load is made afresh from its bundle too", () => {
  const directory = rulesCopy();
  const cache = new ReloadCache();
  const text = loadRulesAsText(directory, NO_CUSTOM_OPERATORS, false, cache);
  expect(text.rulesets.every((entry) => "bundleText" in entry)).toBe(true);
  expect(text.compiled).toBe(text.rulesets.length);
  snapshotFromText(text, NO_CUSTOM_OPERATORS, 1, new Date(), cache);
  const again = loadRulesAsText(directory, NO_CUSTOM_OPERATORS, false, cache);
  expect(again.rulesets.every((entry) => "kept" in entry)).toBe(true);
  expect(again.compiled).toBe(0);
});
