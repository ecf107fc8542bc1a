import { expect, test } from "bun:test";
import { localeFallbacks } from "../../../src/engine/evaluation/locale-fallbacks.ts";

test("a locale falls back through its shorter tags, most specific first", () => {
  expect(localeFallbacks("fr-CA-x-a")).toEqual(["fr-CA-x-a", "fr-CA-x", "fr-CA", "fr"]);
  expect(localeFallbacks("de")).toEqual(["de"]);
  expect(localeFallbacks("")).toEqual([]);
});

test("tags longer than the longest catalog tag are not made, whatever the locale's length", () => {
  expect(localeFallbacks("fr-CA-x-a", 5)).toEqual(["fr-CA", "fr"]);
  expect(localeFallbacks(`fr-${"x-".repeat(100_000)}`, 5)).toEqual(["fr-x", "fr"]);
});
