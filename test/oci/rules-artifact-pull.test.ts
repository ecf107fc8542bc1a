import { afterEach, expect, test } from "bun:test";
import { OciError } from "../../src/oci/oci-error.ts";
import { type PullRulesOptions, pullRulesArtifact } from "../../src/oci/rules-artifact.ts";
import { type FakeRegistry, type ServedArtifact, servedArtifact, startFakeRegistry } from "../support/fake-registry.ts";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const FILES = [
  { name: "orders.bundle.json", bytes: bytes('{"id":"orders"}') },
  { name: "orders.bundle.json.sig", bytes: bytes("eyJhbGciOiJFUzI1NiJ9.e30.c2ln") },
];
const ARTIFACT = servedArtifact(FILES);
const TITLE = "org.opencontainers.image.title";

let fakes: FakeRegistry[] = [];
afterEach(async () => {
  await Promise.all(fakes.map((fake) => fake.stop()));
  fakes = [];
});

function serve(artifact: ServedArtifact, answer?: Parameters<typeof startFakeRegistry>[0]["answer"]): FakeRegistry {
  const fake = startFakeRegistry({ artifact, answer });
  fakes.push(fake);
  return fake;
}

async function pullFailure(registry: FakeRegistry, options: PullRulesOptions = {}): Promise<OciError> {
  const error = await pullRulesArtifact(`oci://${registry.host}/rules:prod`, options).then(
    () => new Error("it succeeded"),
    (caught) => caught,
  );
  expect(error).toBeInstanceOf(OciError);
  return error as OciError;
}

test("an unchanged tag costs one HEAD request", async () => {
  const registry = serve(ARTIFACT);
  expect(await pullRulesArtifact(`oci://${registry.host}/rules:prod`, { knownDigest: ARTIFACT.digest })).toEqual({
    unchanged: true,
    digest: ARTIFACT.digest,
  });
  expect(registry.requests).toEqual(["HEAD /v2/rules/manifests/prod"]);
});

test("a changed tag is pulled by the digest its HEAD gave, then each layer", async () => {
  const registry = serve(ARTIFACT);
  const pulled = await pullRulesArtifact(`oci://${registry.host}/rules:prod`, {
    knownDigest: `sha256:${"0".repeat(64)}`,
  });
  expect(pulled).toEqual({ unchanged: false, digest: ARTIFACT.digest, files: FILES });
  expect(registry.requests).toEqual([
    "HEAD /v2/rules/manifests/prod",
    `GET /v2/rules/manifests/${ARTIFACT.digest}`,
    ...[...ARTIFACT.blobs.keys()].map((digest) => `GET /v2/rules/blobs/${digest}`),
  ]);
});

test("a registry whose HEAD gives no digest is asked for the manifest by tag", async () => {
  const registry = serve(ARTIFACT, (request) => (request.method === "HEAD" ? new Response(null) : undefined));
  const pulled = await pullRulesArtifact(`oci://${registry.host}/rules:prod`, {
    knownDigest: `sha256:${"0".repeat(64)}`,
  });
  expect(pulled).toEqual({ unchanged: false, digest: ARTIFACT.digest, files: FILES });
  expect(registry.requests.slice(0, 2)).toEqual(["HEAD /v2/rules/manifests/prod", "GET /v2/rules/manifests/prod"]);
});

test("a manifest of another artifact type is ARTIFACT_TYPE_UNEXPECTED, and no layer is downloaded", async () => {
  const other = servedArtifact(
    FILES,
    (manifest) => (manifest.artifactType = "application/vnd.cncf.helm.config.v1+json"),
  );
  const registry = serve(other);
  expect((await pullFailure(registry)).code).toBe("ARTIFACT_TYPE_UNEXPECTED");
  expect(registry.requests).toEqual(["GET /v2/rules/manifests/prod"]);
});

test("a layer titled with ../ is MANIFEST_INVALID", async () => {
  const escaping = servedArtifact(
    FILES,
    (manifest) => (manifest.layers[0].annotations[TITLE] = "../../etc/orders.bundle.json"),
  );
  expect((await pullFailure(serve(escaping))).code).toBe("MANIFEST_INVALID");
});

test("a tampered layer fails the pull with BLOB_DIGEST_MISMATCH", async () => {
  const tampered: ServedArtifact = {
    ...ARTIFACT,
    blobs: new Map(
      [...ARTIFACT.blobs].map(([digest, blob]) => [digest, bytes(new TextDecoder().decode(blob).toUpperCase())]),
    ),
  };
  expect((await pullFailure(serve(tampered))).code).toBe("BLOB_DIGEST_MISMATCH");
});

test("a manifest over the size limit fails the pull with MANIFEST_TOO_LARGE", async () => {
  const padded = servedArtifact(FILES, (manifest) => (manifest.annotations = { padding: "x".repeat(5 * 1024 * 1024) }));
  expect((await pullFailure(serve(padded))).code).toBe("MANIFEST_TOO_LARGE");
  expect((await pullFailure(serve(ARTIFACT), { maxManifestBytes: 100 })).code).toBe("MANIFEST_TOO_LARGE");
});
