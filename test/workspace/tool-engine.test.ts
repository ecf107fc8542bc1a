import { afterEach, expect, spyOn, test } from "bun:test";
import { join } from "node:path";
import { LoadedRuleset } from "../../src/engine/bundle/loaded-ruleset.ts";
import { NO_CUSTOM_OPERATORS } from "../../src/engine/expression/custom-operators.ts";
import { loadRulesDirectory } from "../../src/workspace/load-rules-directory.ts";
import { TOOL_ENGINE } from "../../src/workspace/tool-engine.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * Rulesets a tool loads, sources and bundles alike, are made with the tools' engine: closures, not
 * generated code (src/workspace/tool-engine.ts), with the same answers as the server's.
 */
const spies: { mockRestore(): void }[] = [];
afterEach(() => {
  for (const spy of spies.splice(0)) spy.mockRestore();
});

test("every ruleset a load makes is made with closures, and answers as one with generated code", () => {
  expect(TOOL_ENGINE).toEqual({ codeGeneration: false });
  const made = spyOn(LoadedRuleset, "fromBundle");
  spies.push(made);
  const loaded = loadRulesDirectory(join(PROJECT_ROOT, "rules"), { operators: NO_CUSTOM_OPERATORS });
  expect(loaded.rulesets.length).toBe(3);
  expect(made.mock.calls.length).toBeGreaterThanOrEqual(3);
  for (const call of made.mock.calls) expect(call[2]).toEqual({ codeGeneration: false });
  const transfers = loaded.rulesets.find((entry) => entry.ruleset.id === "acme.payments.transfers")!;
  const request = {
    entity: "Transfer",
    operation: "create",
    data: { amount: 30000, currency: "EUR", urgent: true, executionDate: "2026-03-03" },
    actor: { id: "u", roles: ["customer"] },
    ctx: { now: "2026-03-02T09:30:00Z" },
  };
  const generated = LoadedRuleset.fromBundle(transfers.bundle, NO_CUSTOM_OPERATORS);
  expect(transfers.ruleset.evaluate(request, "server")).toEqual(generated.evaluate(request, "server"));
});
