import { expect, test } from "bun:test";
import { sha256Hex } from "../../src/compiler/checksum/sha256.ts";
import { nativeSha256 } from "../../src/rule-files/native-sha256.ts";

/** The server's checksums come from the runtime's SHA-256: it must give the portable digest. */
test("the native SHA-256 gives the portable digest at every padding boundary and on large input", () => {
  const lengths = [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 65_537];
  for (const length of lengths) {
    const bytes = new Uint8Array(length).map((_, index) => (index * 31 + length) % 256);
    expect({ length, digest: nativeSha256(bytes) }).toEqual({ length, digest: sha256Hex(bytes) });
  }
  expect(nativeSha256(new TextEncoder().encode("abc"))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});
