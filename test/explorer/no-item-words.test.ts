import { expect, test } from "bun:test";
import { join } from "node:path";
import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import { loadRuleset, type JsonObject, type JsonValue } from "../../src/browser/rule-cascade.ts";
import type { ClientManifest } from "../../src/explorer/client-manifest.ts";
import { statusWords, wordsText } from "../../src/explorer/explanation-text.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * A per-item rule whose list is missing or empty, or a per-field rule whose type no field has, ran
 * on nothing: the explorer says so rather than that its assertion holds. The shipped example's
 * client manifest, evaluated by the browser module with a full explanation, as the page does.
 */
const compiled = compileSourceFile(join(PROJECT_ROOT, "rules", "acme-payments-transfers.ruleset.yaml"));
if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
const manifest = (compiled.compiled.bundle.manifests as JsonObject).client as unknown as ClientManifest;
const ruleset = await loadRuleset(manifest as unknown as JsonValue);

function said(id: string, request: JsonObject): string {
  const entry = ruleset
    .evaluate(request, "client", { explain: "full" })
    .explanation!.rules.find((candidate) => candidate.rule === id)!;
  return wordsText(
    statusWords(
      entry,
      manifest.rules.find((rule) => rule.id === id),
      request,
    ),
  );
}
const transfer = (data: JsonObject, entity = "Transfer"): JsonObject => ({
  entity,
  operation: "create",
  data: { amount: 100, currency: "EUR", reference: "Invoice 42", ...data },
  ctx: { now: "2026-03-02T09:30:00Z" },
});

test("a per-item rule whose list is missing, null or empty ran on no item, and says which list and why", () => {
  expect(said("transfer.invoice.number", transfer({}))).toBe("passed: it ran on no item — `data.invoices` is missing");
  expect(said("transfer.invoice.number", transfer({ invoices: null }))).toBe(
    "passed: it ran on no item — `data.invoices` is null",
  );
  expect(said("transfer.invoice.number", transfer({ invoices: [] }))).toBe(
    "passed: it ran on no item — `data.invoices` is empty",
  );
});

test("a per-item rule that ran on items still says its assertion holds, for the item shown", () => {
  const invoices = [
    { number: "INV-1", amount: 60 },
    { number: "INV-2", amount: 40 },
  ];
  expect(said("transfer.invoice.number", transfer({ invoices }))).toBe(
    "passed: its assertion holds · for `/invoices/1`",
  );
});

test("a rule run per field of a type ran on no field when the request's entity has no field of the type", () => {
  expect(said("bic.format", transfer({}, "Refund"))).toBe(
    "passed: it ran on no field — no field of `Refund` has the type `Bic`",
  );
  expect(said("bic.format", transfer({ beneficiary: { bic: "DEUTDEFFXXX" } }))).toBe(
    "passed: its assertion holds · for `/beneficiary/bic`",
  );
});
