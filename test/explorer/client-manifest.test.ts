import { expect, test } from "bun:test";
import { messageIn, ruleFields, type ClientManifest } from "../../src/explorer/client-manifest.ts";

const manifest: ClientManifest = {
  id: "m",
  version: "1",
  checksum: "c",
  defaultLocale: "en",
  rules: [],
  messages: { en: { a: "A", b: "B" }, fr: { a: "A-fr" }, "fr-CA": {} },
};

test("a message is found as the engine finds it: the tag, its shorter tags, then the default locale", () => {
  expect(messageIn(manifest, "fr-CA", "a")).toEqual({ text: "A-fr", from: "fr" });
  expect(messageIn(manifest, "fr-CA-x-q", "b")).toEqual({ text: "B", from: "en" });
  expect(messageIn(manifest, "en", "a")).toEqual({ text: "A", from: "en" });
  expect(messageIn(manifest, "de", "missing")).toBeUndefined();
});

test("a rule's fields are its target's pointers, under its forEach array", () => {
  expect(ruleFields({ id: "r", kind: "validation", operations: [], target: { fields: ["/a", "/b"] } })).toEqual([
    "/a",
    "/b",
  ]);
  expect(
    ruleFields({ id: "r", kind: "validation", operations: [], forEach: "/invoices", target: { field: "/number" } }),
  ).toEqual(["/invoices/*/number"]);
});
