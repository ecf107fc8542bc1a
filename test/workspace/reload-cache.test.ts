import { afterEach, expect, test } from "bun:test";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LoadedRuleset } from "../../src/engine/bundle/loaded-ruleset.ts";
import { NO_CUSTOM_OPERATORS } from "../../src/engine/expression/custom-operators.ts";
import { type LoadedRulesDirectory, loadRulesDirectory } from "../../src/workspace/load-rules-directory.ts";
import { ReloadCache } from "../../src/workspace/reload-cache.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/**
 * A reload keeps the compiled ruleset of every source whose own text, parents' texts and the
 * directory's other files are unchanged, compiles the rest, and gives exactly what a fresh load of
 * the same files gives: the same rulesets, bundles and checksums, and, when a file is refused, the
 * same problems at the same places.
 */
const removals: (() => void)[] = [];
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
});

function rulesCopy(): { path: string; edit: (file: string, change: (text: string) => string) => void } {
  const directory = temporaryDirectory({});
  removals.push(() => directory.remove());
  cpSync(join(PROJECT_ROOT, "rules"), directory.path, { recursive: true });
  const edit = (file: string, change: (text: string) => string): void =>
    writeFileSync(join(directory.path, file), change(readFileSync(join(directory.path, file), "utf8")));
  return { path: directory.path, edit };
}

const load = (directory: string, cache?: ReloadCache): LoadedRulesDirectory =>
  loadRulesDirectory(directory, { operators: NO_CUSTOM_OPERATORS, ...(cache === undefined ? {} : { cache }) });

const byId = (loaded: LoadedRulesDirectory): Map<string, LoadedRuleset> =>
  new Map(loaded.rulesets.map((entry) => [entry.ruleset.id, entry.ruleset]));

/** What a load gives, as plain data: each ruleset's id, checksum, bundle and listing source's title. */
const served = (loaded: LoadedRulesDirectory) =>
  loaded.rulesets.map((entry) => ({
    id: entry.ruleset.id,
    checksum: entry.ruleset.checksum,
    bundle: entry.bundle,
    file: entry.file,
    title: (entry.source?.document as { metadata?: { title?: string } } | undefined)?.metadata?.title,
  }));

const TRANSFERS = "acme-payments-transfers.ruleset.yaml";
const PAYMENTS = "acme-payments.ruleset.yaml";
const CUSTOMERS = "customer-onboarding.ruleset.json";

test("nothing changed: every compiled ruleset is kept, and the load is a fresh load's", () => {
  const rules = rulesCopy();
  const cache = new ReloadCache();
  const first = load(rules.path, cache);
  const second = load(rules.path, cache);
  expect(second.problems).toEqual([]);
  for (const [id, ruleset] of byId(first)) expect(byId(second).get(id)).toBe(ruleset);
  expect(served(second)).toEqual(served(load(rules.path)));
});

test("a changed child compiles again alone; a changed parent compiles again with its child", () => {
  const rules = rulesCopy();
  const cache = new ReloadCache();
  const before = byId(load(rules.path, cache));
  rules.edit(TRANSFERS, (text) => text.replace(/^ {2}version: "?1\.1\.0"?$/m, '  version: "1.1.1"'));
  const childChanged = load(rules.path, cache);
  expect(childChanged.problems).toEqual([]);
  expect(byId(childChanged).get("acme.payments.transfers")!.version).toBe("1.1.1");
  expect(byId(childChanged).get("acme.payments.transfers")).not.toBe(before.get("acme.payments.transfers"));
  expect(byId(childChanged).get("acme.payments")).toBe(before.get("acme.payments")!);
  expect(byId(childChanged).get("acme.customers.onboarding")).toBe(before.get("acme.customers.onboarding")!);
  expect(served(childChanged)).toEqual(served(load(rules.path)));

  rules.edit(PAYMENTS, (text) => text.replace(/^ {2}version: 1\.3\.0$/m, "  version: 1.3.1"));
  const parentChanged = load(rules.path, cache);
  expect(parentChanged.problems).toEqual([]);
  expect(byId(parentChanged).get("acme.payments")!.version).toBe("1.3.1");
  expect(byId(parentChanged).get("acme.payments")).not.toBe(byId(childChanged).get("acme.payments"));
  expect(byId(parentChanged).get("acme.payments.transfers")).not.toBe(
    byId(childChanged).get("acme.payments.transfers"),
  );
  expect(byId(parentChanged).get("acme.customers.onboarding")).toBe(before.get("acme.customers.onboarding")!);
  expect(served(parentChanged)).toEqual(served(load(rules.path)));
});

test("a changed entity schema file compiles every ruleset again", () => {
  const rules = rulesCopy();
  const cache = new ReloadCache();
  const before = byId(load(rules.path, cache));
  rules.edit("customer.schema.json", (text) => `${text}\n`);
  const after = byId(load(rules.path, cache));
  for (const [id, ruleset] of before) expect(after.get(id)).not.toBe(ruleset);
});

test("a refused file: the same problems at the same places as a fresh load, and the next good load keeps what it can", () => {
  const rules = rulesCopy();
  const cache = new ReloadCache();
  const before = byId(load(rules.path, cache));
  rules.edit(PAYMENTS, (text) => text.replace("kind: validation", "kind: validaton"));
  const refused = load(rules.path, cache);
  expect(refused.problems.length).toBeGreaterThan(0);
  expect(refused.problems).toEqual(load(rules.path).problems);
  expect(refused.problems.some((problem) => problem.line !== undefined)).toBe(true);
  rules.edit(PAYMENTS, (text) => text.replace("kind: validaton", "kind: validation"));
  const mended = load(rules.path, cache);
  expect(mended.problems).toEqual([]);
  expect(byId(mended).get("acme.customers.onboarding")).toBe(before.get("acme.customers.onboarding")!);
  expect(served(mended)).toEqual(served(load(rules.path)));
});

test("a removed file is let go; a file added with an id taken is refused as in a fresh load", () => {
  const rules = rulesCopy();
  const cache = new ReloadCache();
  load(rules.path, cache);
  rmSync(join(rules.path, CUSTOMERS));
  expect(byId(load(rules.path, cache)).has("acme.customers.onboarding")).toBe(false);
  writeFileSync(join(rules.path, "zz-copy.ruleset.yaml"), readFileSync(join(rules.path, TRANSFERS), "utf8"));
  const duplicate = load(rules.path, cache);
  expect(duplicate.problems.map((problem) => problem.code)).toContain("RULESET_DUPLICATE");
  expect(duplicate.problems).toEqual(load(rules.path).problems);
});

test("documents packed between loads are read back as they were: the next load reuses and serves the same", () => {
  const rules = rulesCopy();
  const cache = new ReloadCache();
  const before = load(rules.path, cache);
  cache.packDocuments();
  const after = load(rules.path, cache);
  expect(served(after)).toEqual(served(before));
  for (const [id, ruleset] of byId(before)) expect(byId(after).get(id)).toBe(ruleset);
  // Packed twice over does no harm, and a changed file is read afresh.
  cache.packDocuments();
  rules.edit(TRANSFERS, (text) => text.replace("version: 1.1.0", "version: 1.1.1"));
  const changed = load(rules.path, cache);
  expect(byId(changed).get("acme.payments.transfers")!.version).toBe("1.1.1");
  expect(byId(changed).get("acme.customers.onboarding")).toBe(byId(before).get("acme.customers.onboarding")!);
});
