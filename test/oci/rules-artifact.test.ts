import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseOciReference } from "../../src/oci/oci-reference.ts";
import { pullRulesArtifact, pushRulesArtifact } from "../../src/oci/rules-artifact.ts";
import { startTestRegistry, type TestRegistry } from "../support/test-registry.ts";
import { ociFailure } from "../support/oci-failure.ts";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const FILES = [
  { name: "orders.bundle.json", bytes: bytes(JSON.stringify({ id: "orders", version: "1.0.0" })) },
  { name: "orders.bundle.json.sig", bytes: bytes("eyJhbGciOiJFZERTQSJ9.e30.c2ln") },
  { name: "limits.bundle.json", bytes: bytes(JSON.stringify({ id: "limits", version: "2.1.0" })) },
];

let registry: TestRegistry;
beforeAll(async () => {
  registry = await startTestRegistry();
});
afterAll(async () => {
  await registry?.stop();
});

/** How often the registry has logged an answer to `method` requests. */
const answered = (method: string): number => registry.logs().split(`http.request.method=${method} `).length - 1;

describe("push then pull", () => {
  test("pulls the files pushed, byte for byte, by tag and by digest", async () => {
    const ref = `oci://${registry.host}/rules/shop:v1`;
    const { digest } = await pushRulesArtifact(ref, FILES);
    expect(digest).toMatch(/^sha256:[a-f0-9]{64}$/);

    const byTag = await pullRulesArtifact(ref);
    expect(byTag).toEqual({ unchanged: false, digest, files: FILES });

    const byDigest = await pullRulesArtifact(`oci://${registry.host}/rules/shop@${digest}`);
    expect(byDigest).toEqual({ unchanged: false, digest, files: FILES });
  });

  test("takes a parsed reference as well as text", async () => {
    const ref = parseOciReference(`oci://${registry.host}/rules/parsed:v1`);
    const { digest } = await pushRulesArtifact(ref, FILES);
    expect(await pullRulesArtifact(ref)).toEqual({ unchanged: false, digest, files: FILES });
  });

  test("a re-push of a changed release moves the tag: the old digest gets the new files, the new one is unchanged", async () => {
    const ref = `oci://${registry.host}/rules/moving:prod`;
    const first = await pushRulesArtifact(ref, FILES);
    const changed = [
      { ...FILES[0]!, bytes: bytes(JSON.stringify({ id: "orders", version: "1.0.1" })) },
      ...FILES.slice(1),
    ];
    const second = await pushRulesArtifact(ref, changed);
    expect(second.digest).not.toBe(first.digest);

    expect(await pullRulesArtifact(ref, { knownDigest: first.digest })).toEqual({
      unchanged: false,
      digest: second.digest,
      files: changed,
    });
    expect(await pullRulesArtifact(ref, { knownDigest: second.digest })).toEqual({
      unchanged: true,
      digest: second.digest,
    });
  });

  test("pushing the same files again gives the same digest and uploads no blob twice", async () => {
    const ref = `oci://${registry.host}/rules/again:v1`;
    const first = await pushRulesArtifact(ref, FILES);
    const uploadsBefore = answered("POST");
    expect(uploadsBefore).toBeGreaterThan(0);
    const second = await pushRulesArtifact(ref, FILES);
    expect(second.digest).toBe(first.digest);
    expect(answered("POST")).toBe(uploadsBefore);
  });

  test("a digest reference equal to the known digest is unchanged without asking the registry", async () => {
    const digest = `sha256:${"0".repeat(64)}`;
    // Port 9 (discard) is closed here: any request would fail.
    expect(await pullRulesArtifact(`oci://127.0.0.1:9/rules@${digest}`, { knownDigest: digest })).toEqual({
      unchanged: true,
      digest,
    });
  });
});

describe("refusals", () => {
  test("a tag the registry does not have is MANIFEST_NOT_FOUND", async () => {
    await pushRulesArtifact(`oci://${registry.host}/rules/known:v1`, FILES);
    const error = await ociFailure(pullRulesArtifact(`oci://${registry.host}/rules/known:v2`));
    expect(error.code).toBe("MANIFEST_NOT_FOUND");
    expect(
      (await ociFailure(pullRulesArtifact(`oci://${registry.host}/rules/known:v2`, { knownDigest: "sha256:x" }))).code,
    ).toBe("MANIFEST_NOT_FOUND");
  });

  test("a push needs a tag, and files that can make an artifact", async () => {
    const digest = `sha256:${"1".repeat(64)}`;
    expect((await ociFailure(pushRulesArtifact(`oci://${registry.host}/rules@${digest}`, FILES))).code).toBe(
      "OCI_REFERENCE_INVALID",
    );
    expect((await ociFailure(pushRulesArtifact(`oci://${registry.host}/rules:v1`, []))).code).toBe(
      "ARTIFACT_FILES_INVALID",
    );
    expect(
      (
        await ociFailure(
          pushRulesArtifact(`oci://${registry.host}/rules:v1`, [{ name: "../x.json", bytes: bytes("{}") }]),
        )
      ).code,
    ).toBe("ARTIFACT_FILES_INVALID");
  });

  test("a registry that went down is REGISTRY_UNREACHABLE, whether the pull knows a digest or not", async () => {
    const gone = await startTestRegistry();
    const ref = `oci://${gone.host}/rules/shop:v1`;
    const { digest } = await pushRulesArtifact(ref, FILES);
    await gone.stop();
    expect((await ociFailure(pullRulesArtifact(ref))).code).toBe("REGISTRY_UNREACHABLE");
    expect((await ociFailure(pullRulesArtifact(ref, { knownDigest: digest }))).code).toBe("REGISTRY_UNREACHABLE");
  });
});
