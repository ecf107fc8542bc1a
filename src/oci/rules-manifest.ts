import {
  BUNDLE_LAYER,
  OCI_EMPTY,
  OCI_MANIFEST,
  RULES_ARTIFACT_TYPE,
  SIGNATURE_LAYER,
  TITLE_ANNOTATION,
} from "./media-types.ts";
import { OciError } from "./oci-error.ts";
import { SHA256_DIGEST, sha256Digest } from "../workspace/files/content-digest.ts";

/** A file of a rules release: a bundle, or a bundle's signature `<bundle>.sig`. */
export interface ArtifactFile {
  /** A plain file name: no directory, not hidden. */
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** An OCI content descriptor: what a blob is, its digest and its size. */
export interface Descriptor {
  readonly mediaType: string;
  readonly digest: string;
  readonly size: number;
  readonly annotations?: Readonly<Record<string, string>>;
  /** The blob itself, base64, for the empty config. */
  readonly data?: string;
}

/** A layer of a rules artifact: the file it holds and where its bytes are. */
export interface RulesLayer {
  readonly name: string;
  readonly descriptor: Descriptor;
}

export const EMPTY_CONFIG_BYTES: Uint8Array = new TextEncoder().encode("{}");
export const EMPTY_CONFIG: Descriptor = {
  mediaType: OCI_EMPTY,
  digest: sha256Digest(EMPTY_CONFIG_BYTES),
  size: EMPTY_CONFIG_BYTES.byteLength,
  data: Buffer.from(EMPTY_CONFIG_BYTES).toString("base64"),
};

const SIGNATURE_SUFFIX = ".sig";
const MAX_NAME_LENGTH = 255;

/** Why `name` cannot be a file of the artifact (it is written into a directory as it is), or undefined when it can. */
export function fileNameProblem(name: string): string | undefined {
  if (name === "") return "is empty";
  if (name.length > MAX_NAME_LENGTH) return `is longer than ${MAX_NAME_LENGTH} characters`;
  if (name.includes("/") || name.includes("\\")) return "is a path, not a plain file name";
  if (name.startsWith(".")) return "starts with a dot";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(name)) return "holds control characters";
  return undefined;
}

/** A signature's layer for `<bundle>.sig`, a bundle's for any other file. */
export function layerMediaType(name: string): string {
  return name.endsWith(SIGNATURE_SUFFIX) ? SIGNATURE_LAYER : BUNDLE_LAYER;
}

/** The files to push, refused (ARTIFACT_FILES_INVALID) when they cannot make an artifact. */
export function checkArtifactFiles(files: readonly ArtifactFile[]): void {
  if (files.length === 0) throw new OciError("ARTIFACT_FILES_INVALID", "an artifact needs at least one file");
  const seen = new Set<string>();
  for (const { name } of files) {
    const problem = fileNameProblem(name);
    if (problem) throw new OciError("ARTIFACT_FILES_INVALID", `the file name "${name}" ${problem}`);
    if (seen.has(name)) throw new OciError("ARTIFACT_FILES_INVALID", `two files are named "${name}"`);
    seen.add(name);
  }
}

/** The manifest of a rules artifact with these layers, as the bytes pushed (the same layers give the same bytes). */
export function rulesManifestBytes(layers: readonly RulesLayer[]): Uint8Array {
  const manifest = {
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    artifactType: RULES_ARTIFACT_TYPE,
    config: EMPTY_CONFIG,
    layers: layers.map(({ name, descriptor }) => ({
      mediaType: descriptor.mediaType,
      digest: descriptor.digest,
      size: descriptor.size,
      annotations: { [TITLE_ANNOTATION]: name },
    })),
  };
  return new TextEncoder().encode(JSON.stringify(manifest));
}

/**
 * The layers of a pulled manifest, checked: an OCI image manifest (by its `mediaType`, else the
 * answer's Content-Type) of the rules artifact type (its `artifactType`, else its config's media
 * type), whose layers are all bundles or signatures with plain, unique file names.
 */
export function readRulesManifest(bytes: Uint8Array, contentType?: string): RulesLayer[] {
  const invalid = (why: string): OciError => new OciError("MANIFEST_INVALID", `the manifest ${why}`);
  let manifest: unknown;
  try {
    manifest = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw invalid("is not JSON");
  }
  if (!isRecord(manifest)) throw invalid("is not a JSON object");
  const mediaType = typeof manifest.mediaType === "string" ? manifest.mediaType : contentType;
  if (mediaType !== OCI_MANIFEST) {
    throw new OciError(
      "ARTIFACT_TYPE_UNEXPECTED",
      `the manifest is ${mediaType ? `a ${mediaType}` : "of no media type"}, not an OCI image manifest of rules`,
    );
  }
  if (manifest.schemaVersion !== 2) throw invalid("does not have schemaVersion 2");
  const config = descriptorOf(manifest.config);
  if (!config) throw invalid("has no valid config descriptor");
  const artifactType = typeof manifest.artifactType === "string" ? manifest.artifactType : config.mediaType;
  if (artifactType !== RULES_ARTIFACT_TYPE) {
    throw new OciError("ARTIFACT_TYPE_UNEXPECTED", `the artifact is a ${artifactType}, not ${RULES_ARTIFACT_TYPE}`);
  }
  if (!Array.isArray(manifest.layers) || manifest.layers.length === 0) throw invalid("has no layers");
  const names = new Set<string>();
  return manifest.layers.map((layer, index): RulesLayer => {
    const descriptor = descriptorOf(layer);
    if (!descriptor) throw invalid(`has an invalid layer descriptor (layer ${index})`);
    if (descriptor.mediaType !== BUNDLE_LAYER && descriptor.mediaType !== SIGNATURE_LAYER) {
      throw new OciError(
        "ARTIFACT_TYPE_UNEXPECTED",
        `layer ${index} is a ${descriptor.mediaType}, neither a bundle (${BUNDLE_LAYER}) nor a signature (${SIGNATURE_LAYER})`,
      );
    }
    const name = descriptor.annotations?.[TITLE_ANNOTATION];
    if (name === undefined) throw invalid(`has a layer without ${TITLE_ANNOTATION} (layer ${index})`);
    const problem = fileNameProblem(name);
    if (problem) throw invalid(`names a layer "${name}", which ${problem}`);
    if (names.has(name)) throw invalid(`names two layers "${name}"`);
    if (layerMediaType(name) !== descriptor.mediaType) {
      throw invalid(
        `has "${name}" as a ${descriptor.mediaType}: signatures, and only they, end in ${SIGNATURE_SUFFIX}`,
      );
    }
    names.add(name);
    return { name, descriptor };
  });
}

/** A descriptor with a media type, a sha256 digest and a size; undefined when the value is none. */
function descriptorOf(value: unknown): Descriptor | undefined {
  if (!isRecord(value)) return undefined;
  const { mediaType, digest, size, annotations } = value;
  if (typeof mediaType !== "string" || typeof digest !== "string" || !SHA256_DIGEST.test(digest)) return undefined;
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) return undefined;
  if (annotations !== undefined && !isStringRecord(annotations)) return undefined;
  return { mediaType, digest, size, ...(annotations !== undefined && { annotations }) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((entry) => typeof entry === "string");
}
