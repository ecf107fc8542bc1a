import { createHash } from "node:crypto";
import { expect, test } from "bun:test";
import { sha256Hex } from "../../../src/compiler/checksum/sha256.ts";

/** Our portable SHA-256 against the platform's, on the lengths where padding changes. */
const encoder = new TextEncoder();

test("the empty message and 'abc' give the FIPS 180-4 digests", () => {
  expect(sha256Hex(new Uint8Array())).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  expect(sha256Hex(encoder.encode("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});

test("every length around the block boundaries agrees with node:crypto", () => {
  for (let length = 0; length < 300; length++) {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
    expect(sha256Hex(bytes)).toBe(createHash("sha256").update(bytes).digest("hex"));
  }
});

test("a multi-byte UTF-8 text agrees with node:crypto", () => {
  const text = "Quantité 😀 ".repeat(1000);
  expect(sha256Hex(encoder.encode(text))).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
});
