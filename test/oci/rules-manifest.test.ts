import { describe, expect, test } from "bun:test";
import {
  BUNDLE_LAYER,
  OCI_EMPTY,
  OCI_INDEX,
  OCI_MANIFEST,
  RULES_ARTIFACT_TYPE,
  SIGNATURE_LAYER,
} from "../../src/oci/media-types.ts";
import type { OciError } from "../../src/oci/oci-error.ts";
import {
  checkArtifactFiles,
  EMPTY_CONFIG,
  readRulesManifest,
  type RulesLayer,
  rulesManifestBytes,
} from "../../src/oci/rules-manifest.ts";
import { sha256Digest } from "../../src/workspace/files/content-digest.ts";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const LAYERS: RulesLayer[] = [
  { name: "orders.bundle.json", descriptor: { mediaType: BUNDLE_LAYER, digest: sha256Digest(bytes("b")), size: 1 } },
  {
    name: "orders.bundle.json.sig",
    descriptor: { mediaType: SIGNATURE_LAYER, digest: sha256Digest(bytes("s")), size: 1 },
  },
];

/** The manifest of LAYERS, changed by `edit`, as bytes. */
function manifestWith(edit: (manifest: any) => void): Uint8Array {
  const manifest = JSON.parse(new TextDecoder().decode(rulesManifestBytes(LAYERS)));
  edit(manifest);
  return bytes(JSON.stringify(manifest));
}

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as OciError).code;
  }
  return "accepted";
}

test("the manifest is an OCI image manifest of the rules artifact type with the empty config and a titled layer per file", () => {
  expect(JSON.parse(new TextDecoder().decode(rulesManifestBytes(LAYERS)))).toEqual({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType: RULES_ARTIFACT_TYPE,
    config: { mediaType: OCI_EMPTY, digest: sha256Digest(bytes("{}")), size: 2, data: "e30=" },
    layers: LAYERS.map(({ name, descriptor }) => ({
      ...descriptor,
      annotations: { "org.opencontainers.image.title": name },
    })),
  });
  expect(EMPTY_CONFIG.digest).toBe("sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
});

describe("readRulesManifest", () => {
  test("gives back the layers of a manifest it wrote", () => {
    expect(readRulesManifest(rulesManifestBytes(LAYERS))).toMatchObject(LAYERS);
  });

  test("takes the artifact type from the config when the manifest has no artifactType", () => {
    const manifest = manifestWith((m) => {
      delete m.artifactType;
      m.config.mediaType = RULES_ARTIFACT_TYPE;
    });
    expect(readRulesManifest(manifest)).toMatchObject(LAYERS);
  });

  test("takes the media type from the answer's Content-Type when the manifest has none", () => {
    const manifest = manifestWith((m) => delete m.mediaType);
    expect(readRulesManifest(manifest, OCI_MANIFEST)).toMatchObject(LAYERS);
    expect(codeOf(() => readRulesManifest(manifest))).toBe("ARTIFACT_TYPE_UNEXPECTED");
  });

  test("refuses other artifacts, indexes and layers that are neither bundles nor signatures", () => {
    expect(
      codeOf(() => readRulesManifest(manifestWith((m) => (m.artifactType = "application/vnd.example+type")))),
    ).toBe("ARTIFACT_TYPE_UNEXPECTED");
    expect(codeOf(() => readRulesManifest(manifestWith((m) => delete m.artifactType)))).toBe(
      "ARTIFACT_TYPE_UNEXPECTED",
    );
    expect(
      codeOf(() => readRulesManifest(bytes(JSON.stringify({ schemaVersion: 2, mediaType: OCI_INDEX, manifests: [] })))),
    ).toBe("ARTIFACT_TYPE_UNEXPECTED");
    expect(
      codeOf(() =>
        readRulesManifest(manifestWith((m) => (m.layers[0].mediaType = "application/vnd.oci.image.layer.v1.tar"))),
      ),
    ).toBe("ARTIFACT_TYPE_UNEXPECTED");
  });

  test("refuses layer titles that are not plain, unique file names, or that misname a signature", () => {
    for (const title of ["../orders.bundle.json", "a/b.json", "..", ".hidden", "", "a\\b", "x\ny"]) {
      expect(
        codeOf(() =>
          readRulesManifest(manifestWith((m) => (m.layers[0].annotations["org.opencontainers.image.title"] = title))),
        ),
      ).toBe("MANIFEST_INVALID");
    }
    expect(codeOf(() => readRulesManifest(manifestWith((m) => delete m.layers[0].annotations)))).toBe(
      "MANIFEST_INVALID",
    );
    expect(
      codeOf(() =>
        readRulesManifest(
          manifestWith((m) => (m.layers[1].annotations["org.opencontainers.image.title"] = "orders.bundle.json")),
        ),
      ),
    ).toBe("MANIFEST_INVALID");
    expect(codeOf(() => readRulesManifest(manifestWith((m) => (m.layers[0].mediaType = SIGNATURE_LAYER))))).toBe(
      "MANIFEST_INVALID",
    );
  });

  test("refuses what is not a manifest: not JSON, another schema version, bad descriptors, no layers", () => {
    expect(codeOf(() => readRulesManifest(bytes("{")))).toBe("MANIFEST_INVALID");
    expect(codeOf(() => readRulesManifest(bytes("[]")))).toBe("MANIFEST_INVALID");
    expect(codeOf(() => readRulesManifest(manifestWith((m) => (m.schemaVersion = 1))))).toBe("MANIFEST_INVALID");
    expect(codeOf(() => readRulesManifest(manifestWith((m) => (m.layers[0].digest = "md5:abc"))))).toBe(
      "MANIFEST_INVALID",
    );
    expect(codeOf(() => readRulesManifest(manifestWith((m) => (m.layers[0].size = -1))))).toBe("MANIFEST_INVALID");
    expect(codeOf(() => readRulesManifest(manifestWith((m) => delete m.config)))).toBe("MANIFEST_INVALID");
    expect(codeOf(() => readRulesManifest(manifestWith((m) => (m.layers = []))))).toBe("MANIFEST_INVALID");
  });
});

test("checkArtifactFiles refuses no files, names that are not plain file names, and a name twice", () => {
  const file = (name: string) => ({ name, bytes: bytes("x") });
  expect(codeOf(() => checkArtifactFiles([file("a.json"), file("a.json.sig")]))).toBe("accepted");
  expect(codeOf(() => checkArtifactFiles([]))).toBe("ARTIFACT_FILES_INVALID");
  expect(codeOf(() => checkArtifactFiles([file("dir/a.json")]))).toBe("ARTIFACT_FILES_INVALID");
  expect(codeOf(() => checkArtifactFiles([file("..")]))).toBe("ARTIFACT_FILES_INVALID");
  expect(codeOf(() => checkArtifactFiles([file("a.json"), file("a.json")]))).toBe("ARTIFACT_FILES_INVALID");
});
