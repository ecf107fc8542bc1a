import { expect, test } from "bun:test";
import { canonicalJson, sortedKeys } from "../../../src/engine/value/canonical-json.ts";

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

test("keys sort in UTF-16 code unit order for every size, as Array.prototype.sort sorts them", () => {
  const alphabet = ["a", "B", "_", "é", "😀", "aa", "a-", "Z9", "", "\u0000", "ﬀ", "10", "9"];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let size = 0; size < 40; size++) {
    const keys = Array.from(
      { length: size },
      (_, i) => `${alphabet[Math.floor(next() * alphabet.length)]}${i % 3 === 0 ? i : ""}`,
    );
    const value = Object.fromEntries(keys.map((key) => [key, 1]));
    expect(sortedKeys(value)).toEqual(Object.keys(value).sort());
  }
});
