import { expect, test } from "bun:test";
import { canonicalJson } from "../../../src/engine/value/canonical-json.ts";

/** Canonical JSON (specification section 6), the text a ruleset's checksum is taken of. */
test("members sorted by UTF-16 code units, no whitespace, numbers in plain decimals, zero as 0", () => {
  expect(canonicalJson({ b: [1, -0, 1.5e-7, 1e21], a: { z: null, é: true, Z: false }, "": "" })).toBe(
    '{"":"","a":{"Z":false,"z":null,"é":true},"b":[1,0,0.00000015,1000000000000000000000]}',
  );
});

test("strings are escaped exactly as JSON.stringify escapes them, keys too", () => {
  const texts = [
    'say "hi"',
    "back\\slash",
    "tab\there",
    "nul\u0000",
    "\u001f",
    "emoji 😀",
    "lone \ud800 high",
    "lone \udc00 low",
    "plain",
  ];
  for (const text of texts) {
    expect(canonicalJson(text)).toBe(JSON.stringify(text));
    expect(canonicalJson({ [text]: 1 })).toBe(`{${JSON.stringify(text)}:1}`);
  }
});
