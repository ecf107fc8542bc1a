import { afterAll, beforeAll, expect, test } from "bun:test";
import { pullRulesArtifact, pushRulesArtifact } from "../../src/oci/rules-artifact.ts";
import { startTestRegistry, type TestRegistry } from "../support/test-registry.ts";

let registry: TestRegistry;
beforeAll(async () => {
  registry = await startTestRegistry();
});
afterAll(async () => {
  await registry?.stop();
});

/** How often the registry has logged an answer to `method` requests. */
const answered = (method: string): number => registry.logs().split(`http.request.method=${method} `).length - 1;

/** Bytes that differ from one chunk to the next, so that a chunk sent twice or out of order shows. */
function patterned(size: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: size }, (_, index) => (index * 31 + seed) % 251);
}

test("a blob over the chunk size goes up in chunks (PATCH after PATCH) and comes back whole", async () => {
  const files = [
    { name: "large.bundle.json", bytes: patterned(4500, 1) },
    { name: "small.bundle.json", bytes: patterned(1000, 2) },
  ];
  const ref = `oci://${registry.host}/rules/chunked:v1`;
  const patchesBefore = answered("PATCH");
  const { digest } = await pushRulesArtifact(ref, files, { chunkSize: 1000 });
  // 4500 bytes in chunks of 1000: five PATCH requests; the 1000-byte blob goes in one PUT.
  expect(answered("PATCH") - patchesBefore).toBe(5);
  expect(await pullRulesArtifact(ref)).toEqual({ unchanged: false, digest, files });
});

test("blobs within the chunk size go up in one PUT", async () => {
  const patchesBefore = answered("PATCH");
  await pushRulesArtifact(`oci://${registry.host}/rules/whole:v1`, [
    { name: "a.bundle.json", bytes: patterned(3000, 3) },
  ]);
  expect(answered("PATCH")).toBe(patchesBefore);
});
