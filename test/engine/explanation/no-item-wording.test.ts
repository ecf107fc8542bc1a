import { expect, test } from "bun:test";
import { wordsText } from "../../../src/engine/explanation/explanation-words.ts";
import { ruleWords } from "../../../src/engine/explanation/rule-status-wording.ts";
import type { JsonObject } from "../../../src/engine/value/json-value.ts";
import { exampleRules, explained } from "./example-transfer.ts";

/**
 * A per-item rule whose list is missing or empty, or a per-field rule whose type no field has, ran
 * on nothing: the wording says so rather than that its assertion holds.
 */
const transfer = (data: JsonObject, entity = "Transfer"): JsonObject => ({
  entity,
  operation: "create",
  data: { amount: 100, currency: "EUR", reference: "Invoice 42", ...data },
  ctx: { now: "2026-03-02T09:30:00Z" },
});
const said = (id: string, request: JsonObject): string => explained(request).said(id);

test("a per-item rule whose list is missing, null or empty ran on no item, and says which list and why", () => {
  expect(said("transfer.invoice.number", transfer({}))).toBe("it ran on no item because data.invoices is missing");
  expect(said("transfer.invoice.number", transfer({ invoices: null }))).toBe(
    "it ran on no item because data.invoices is null",
  );
  expect(said("transfer.invoice.number", transfer({ invoices: [] }))).toBe(
    "it ran on no item because data.invoices is empty",
  );
});

test("a per-item rule that ran on items says its assertion holds for every item, and which one is shown", () => {
  const invoices = [
    { number: "INV-1", amount: 60 },
    { number: "INV-2", amount: 40 },
  ];
  expect(said("transfer.invoice.number", transfer({ invoices }))).toBe(
    "its assertion holds for every item of data.invoices (shown for /invoices/1)",
  );
});

test("a rule run per field of a type ran on no field when the request's entity has no field of the type", () => {
  expect(said("bic.format", transfer({}, "Refund"))).toBe(
    "it ran on no field because no field of Refund has the type Bic",
  );
  expect(said("bic.format", transfer({ beneficiary: { bic: "DEUTDEFFXXX" } }))).toBe(
    "its assertion holds for every field of the type Bic (shown for /beneficiary/bic)",
  );
});

test("without the request or the rule, it still does not claim its assertion holds", () => {
  const { result } = explained(transfer({}));
  const entry = result.explanation!.rules.find((candidate) => candidate.rule === "transfer.invoice.number")!;
  expect(wordsText(ruleWords(entry, { rules: exampleRules }))).toBe("it ran on no item of data.invoices");
  expect(wordsText(ruleWords(entry, {}))).toBe("it ran on no item or field");
});
