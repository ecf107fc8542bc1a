import { OCI_MANIFEST } from "./media-types.ts";
import { OciError } from "./oci-error.ts";
import { type OciReference, parseOciReference } from "./oci-reference.ts";
import { RegistryClient, type RegistryClientOptions } from "./registry-client.ts";
import {
  type ArtifactFile,
  checkArtifactFiles,
  EMPTY_CONFIG_BYTES,
  layerMediaType,
  type RulesLayer,
  readRulesManifest,
  rulesManifestBytes,
} from "./rules-manifest.ts";

export interface RulesArtifactOptions extends RegistryClientOptions {
  /** Plain HTTP whatever the host, for a reference given as text (`--plain-http`). */
  readonly plainHttp?: boolean;
}

export interface PullRulesOptions extends RulesArtifactOptions {
  /** The digest of the release already held: when the reference still names it, nothing is downloaded. */
  readonly knownDigest?: string;
}

export type PulledRulesArtifact =
  | { readonly unchanged: true; readonly digest: string }
  | { readonly unchanged: false; readonly digest: string; readonly files: ArtifactFile[] };

/**
 * Pushes the files as one rules artifact under the reference's tag: the empty config and a layer
 * per file (blobs the repository has already are not sent again), then the manifest. Returns the
 * manifest's digest.
 */
export async function pushRulesArtifact(
  reference: OciReference | string,
  files: readonly ArtifactFile[],
  options: RulesArtifactOptions = {},
): Promise<{ digest: string }> {
  const target = referenceOf(reference, options);
  if (target.tag === undefined || target.digest !== undefined) {
    throw new OciError(
      "OCI_REFERENCE_INVALID",
      "a push needs a reference with a tag and no digest: oci://HOST/REPO:TAG",
    );
  }
  checkArtifactFiles(files);
  const client = new RegistryClient(target, options);
  await client.pushBlob(target.repository, EMPTY_CONFIG_BYTES);
  const layers: RulesLayer[] = [];
  for (const file of files) {
    const blob = await client.pushBlob(target.repository, file.bytes);
    layers.push({ name: file.name, descriptor: { mediaType: layerMediaType(file.name), ...blob } });
  }
  const digest = await client.pushManifest(target.repository, target.tag, rulesManifestBytes(layers), OCI_MANIFEST);
  return { digest };
}

/**
 * Pulls the rules artifact a reference names, checked (its type, each layer's type and file name,
 * every digest). With `knownDigest`, a tag still naming that release costs one HEAD request, and
 * a digest reference equal to it none.
 */
export async function pullRulesArtifact(
  reference: OciReference | string,
  options: PullRulesOptions = {},
): Promise<PulledRulesArtifact> {
  const source = referenceOf(reference, options);
  const { repository } = source;
  const client = new RegistryClient(source, options);
  let wanted = source.digest;
  if (wanted === undefined && options.knownDigest !== undefined) {
    wanted = await client.manifestDigest(repository, source.tag!);
  }
  if (wanted !== undefined && wanted === options.knownDigest) return { unchanged: true, digest: wanted };
  const manifest = await client.getManifest(repository, wanted ?? source.tag!);
  const layers = readRulesManifest(manifest.bytes, manifest.mediaType);
  const files: ArtifactFile[] = [];
  for (const layer of layers)
    files.push({ name: layer.name, bytes: await client.getBlob(repository, layer.descriptor) });
  return { unchanged: false, digest: manifest.digest, files };
}

function referenceOf(reference: OciReference | string, options: RulesArtifactOptions): OciReference {
  return typeof reference === "string"
    ? parseOciReference(reference, options.plainHttp !== undefined ? { plainHttp: options.plainHttp } : {})
    : reference;
}
