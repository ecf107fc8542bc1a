import { expect, test } from "bun:test";
import { valueText } from "../../../src/engine/explanation/value-text.ts";

test("values are compact JSON, cut with an ellipsis past a length", () => {
  expect(valueText("EUR")).toBe('"EUR"');
  expect(valueText({ amount: 30000, currency: "EUR" })).toBe('{"amount":30000,"currency":"EUR"}');
  expect(valueText(null)).toBe("null");
  const cut = valueText("x".repeat(300), 20);
  expect(cut).toHaveLength(20);
  expect(cut.endsWith("…")).toBe(true);
  expect(valueText("x".repeat(300))).toHaveLength(120);
});
