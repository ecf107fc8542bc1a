import { readBoundedBody } from "./bounded-body.ts";
import { DOCKER_MANIFEST, DOCKER_MANIFEST_LIST, OCI_INDEX, OCI_MANIFEST } from "./media-types.ts";
import { OciError } from "./oci-error.ts";
import type { OciReference } from "./oci-reference.ts";
import { registryRefusal } from "./registry-refusal.ts";
import { RegistrySession, type RegistrySessionOptions } from "./registry-session.ts";
import type { Descriptor } from "./rules-manifest.ts";
import { SHA256_DIGEST, sha256Digest } from "../workspace/files/content-digest.ts";

export interface RegistryLimits {
  /** Blobs larger than this are uploaded in chunks of this size (PATCH), smaller ones in one PUT; 16 MiB by default. */
  readonly chunkSize?: number;
  /** A manifest larger than this is refused unread; 4 MiB by default. */
  readonly maxManifestBytes?: number;
  /** A blob larger than this is refused unread; 64 MiB by default. */
  readonly maxBlobBytes?: number;
}

export interface RegistryClientOptions extends RegistrySessionOptions, RegistryLimits {
  /** A session to reuse, with its tokens, credentials and timeout, when it is for the same registry. */
  readonly session?: RegistrySession;
}

/** A manifest as pulled: its bytes, their digest and the media type the registry gave. */
export interface PulledManifest {
  readonly bytes: Uint8Array;
  readonly digest: string;
  readonly mediaType: string | undefined;
}

const DEFAULT_CHUNK_SIZE = 16 * 1024 * 1024;
const DEFAULT_MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const DEFAULT_MAX_BLOB_BYTES = 64 * 1024 * 1024;
// Every manifest kind is accepted, so that another artifact is reported as such rather than as not found.
const MANIFEST_ACCEPT = [OCI_MANIFEST, OCI_INDEX, DOCKER_MANIFEST, DOCKER_MANIFEST_LIST].join(", ");
const OCTET_STREAM = "application/octet-stream";

/** The OCI Distribution API of one registry: blobs and manifests of its repositories. */
export class RegistryClient {
  readonly session: RegistrySession;
  readonly #chunkSize: number;
  readonly #maxManifestBytes: number;
  readonly #maxBlobBytes: number;

  constructor(reference: Pick<OciReference, "registry" | "plainHttp">, options: RegistryClientOptions = {}) {
    const reusable =
      options.session?.registry === reference.registry && options.session.plainHttp === reference.plainHttp;
    this.session = reusable && options.session ? options.session : new RegistrySession(reference, options);
    this.#chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    this.#maxManifestBytes = options.maxManifestBytes ?? DEFAULT_MAX_MANIFEST_BYTES;
    this.#maxBlobBytes = options.maxBlobBytes ?? DEFAULT_MAX_BLOB_BYTES;
  }

  /** Whether the repository has the blob (HEAD). */
  async hasBlob(repository: string, digest: string): Promise<boolean> {
    return this.session.request(
      { method: "HEAD", url: `/v2/${repository}/blobs/${digest}`, scope: pullScope(repository) },
      async (response) => {
        if (response.status === 200) return true;
        if (response.status === 404) return false;
        throw await registryRefusal(response, "REGISTRY_REFUSED", `${this.session.registry}: HEAD of blob ${digest}`);
      },
    );
  }

  /** Uploads the bytes as a blob unless the repository has it already; returns its digest and size. */
  async pushBlob(repository: string, bytes: Uint8Array): Promise<{ digest: string; size: number }> {
    const digest = sha256Digest(bytes);
    const blob = { digest, size: bytes.byteLength };
    if (await this.hasBlob(repository, digest)) return blob;
    const started = await this.session.request(
      { method: "POST", url: `/v2/${repository}/blobs/uploads/`, scope: pushScope(repository) },
      async (response) => {
        if (response.status !== 202) throw await this.#refused(response, "starting an upload");
        await response.arrayBuffer();
        return { location: locationOf(response), minimumChunk: Number(response.headers.get("oci-chunk-min-length")) };
      },
    );
    let location = started.location;
    let body = bytes;
    if (bytes.byteLength > this.#chunkSize) {
      const chunkSize = Math.max(this.#chunkSize, started.minimumChunk || 0);
      for (let start = 0; start < bytes.byteLength; start += chunkSize) {
        location = await this.#uploadChunk(repository, location, bytes.subarray(start, start + chunkSize), start);
      }
      body = new Uint8Array(0);
    }
    await this.session.request(
      {
        method: "PUT",
        url: withDigest(location, digest),
        scope: pushScope(repository),
        headers: { "content-type": OCTET_STREAM },
        body,
      },
      async (response) => {
        if (response.status !== 201) throw await this.#refused(response, `finishing the upload of ${digest}`);
        await response.arrayBuffer();
      },
    );
    return blob;
  }

  /** Sends one chunk of an upload (PATCH); returns where the next goes. */
  async #uploadChunk(repository: string, location: string, chunk: Uint8Array, start: number): Promise<string> {
    return this.session.request(
      {
        method: "PATCH",
        url: location,
        scope: pushScope(repository),
        headers: { "content-type": OCTET_STREAM, "content-range": `${start}-${start + chunk.byteLength - 1}` },
        body: chunk,
      },
      async (response) => {
        if (response.status !== 202) throw await this.#refused(response, `uploading bytes from ${start}`);
        await response.arrayBuffer();
        return locationOf(response);
      },
    );
  }

  /** Stores a manifest under a tag; returns its digest, which the registry must agree with. */
  async pushManifest(repository: string, tag: string, bytes: Uint8Array, mediaType: string): Promise<string> {
    const digest = sha256Digest(bytes);
    return this.session.request(
      {
        method: "PUT",
        url: `/v2/${repository}/manifests/${tag}`,
        scope: pushScope(repository),
        headers: { "content-type": mediaType },
        body: bytes,
      },
      async (response) => {
        if (response.status !== 201)
          throw await this.#refused(response, `storing the manifest of ${repository}:${tag}`);
        await response.arrayBuffer();
        const stored = response.headers.get("docker-content-digest");
        if (stored && stored !== digest) {
          throw new OciError(
            "MANIFEST_DIGEST_MISMATCH",
            `${this.session.registry} stored the manifest of ${repository}:${tag} as ${stored}, but its bytes are ${digest}`,
          );
        }
        return digest;
      },
    );
  }

  /** The digest of the manifest a tag (or digest) names, by HEAD; undefined when the registry does not say it. */
  async manifestDigest(repository: string, tagOrDigest: string): Promise<string | undefined> {
    return this.session.request(
      {
        method: "HEAD",
        url: `/v2/${repository}/manifests/${tagOrDigest}`,
        scope: pullScope(repository),
        headers: { accept: MANIFEST_ACCEPT },
      },
      async (response) => {
        this.#checkManifestFound(response, repository, tagOrDigest);
        if (response.status !== 200) {
          throw await this.#refused(response, `HEAD of the manifest of ${manifestName(repository, tagOrDigest)}`);
        }
        const digest = response.headers.get("docker-content-digest");
        return digest && SHA256_DIGEST.test(digest) ? digest : undefined;
      },
    );
  }

  /**
   * The manifest a tag or digest names, never read past the size limit; its bytes must hash to the
   * digest asked for, and to the one the registry announces (Docker-Content-Digest) when it does.
   */
  async getManifest(repository: string, tagOrDigest: string): Promise<PulledManifest> {
    const name = manifestName(repository, tagOrDigest);
    return this.session.request(
      {
        method: "GET",
        url: `/v2/${repository}/manifests/${tagOrDigest}`,
        scope: pullScope(repository),
        headers: { accept: MANIFEST_ACCEPT },
      },
      async (response) => {
        this.#checkManifestFound(response, repository, tagOrDigest);
        if (response.status !== 200) throw await this.#refused(response, `getting the manifest of ${name}`);
        const limit = this.#maxManifestBytes;
        const bytes = await readBoundedBody(
          response,
          limit,
          (received) =>
            new OciError(
              "MANIFEST_TOO_LARGE",
              `the manifest of ${name} has ${received} bytes or more; at most ${limit}`,
            ),
        );
        const digest = sha256Digest(bytes);
        const announced = response.headers.get("docker-content-digest");
        for (const expected of [SHA256_DIGEST.test(tagOrDigest) ? tagOrDigest : undefined, announced ?? undefined]) {
          if (expected !== undefined && SHA256_DIGEST.test(expected) && expected !== digest) {
            throw new OciError(
              "MANIFEST_DIGEST_MISMATCH",
              `the manifest of ${name} should be ${expected}, its bytes are ${digest}`,
            );
          }
        }
        return { bytes, digest, mediaType: response.headers.get("content-type")?.split(";")[0]?.trim() || undefined };
      },
    );
  }

  /**
   * A blob's bytes, refused when it is larger than its descriptor says or than the limit, and
   * when they do not hash to the descriptor's digest (too few of them among other faults).
   */
  async getBlob(repository: string, descriptor: Pick<Descriptor, "digest" | "size">): Promise<Uint8Array> {
    const { digest, size } = descriptor;
    if (size > this.#maxBlobBytes) {
      throw new OciError("BLOB_TOO_LARGE", `blob ${digest} has ${size} bytes; at most ${this.#maxBlobBytes}`);
    }
    return this.session.request(
      { method: "GET", url: `/v2/${repository}/blobs/${digest}`, scope: pullScope(repository) },
      async (response) => {
        if (response.status !== 200) throw await this.#refused(response, `getting blob ${digest}`);
        const bytes = await readBoundedBody(
          response,
          size,
          (received) =>
            new OciError("BLOB_TOO_LARGE", `blob ${digest} has ${received} bytes or more; its descriptor says ${size}`),
          (received) =>
            new OciError(
              "BLOB_DIGEST_MISMATCH",
              `blob ${digest} is truncated: the answer broke off after ${received} of ${size} bytes`,
            ),
        );
        if (bytes.byteLength < size) {
          throw new OciError(
            "BLOB_DIGEST_MISMATCH",
            `blob ${digest} is truncated: ${bytes.byteLength} of ${size} bytes`,
          );
        }
        const actual = sha256Digest(bytes);
        if (actual !== digest) {
          throw new OciError("BLOB_DIGEST_MISMATCH", `blob ${digest} of ${repository} has other bytes (${actual})`);
        }
        return bytes;
      },
    );
  }

  #checkManifestFound(response: Response, repository: string, tagOrDigest: string): void {
    if (response.status === 404) {
      void response.body?.cancel().catch(() => {});
      const name = manifestName(repository, tagOrDigest);
      throw new OciError("MANIFEST_NOT_FOUND", `${this.session.registry} has no manifest ${name}`, 404);
    }
  }

  #refused(response: Response, what: string): Promise<OciError> {
    return registryRefusal(response, "REGISTRY_REFUSED", `${this.session.registry} refused ${what}`);
  }
}

/** `REPO:TAG` or `REPO@DIGEST`, for messages. */
function manifestName(repository: string, tagOrDigest: string): string {
  return `${repository}${SHA256_DIGEST.test(tagOrDigest) ? "@" : ":"}${tagOrDigest}`;
}

function pullScope(repository: string): string {
  return `repository:${repository}:pull`;
}

function pushScope(repository: string): string {
  return `repository:${repository}:pull,push`;
}

/** The Location of an upload answer; the registry must give one. */
function locationOf(response: Response): string {
  const location = response.headers.get("location");
  if (!location)
    throw new OciError("REGISTRY_REFUSED", `an upload answer (HTTP ${response.status}) without a Location`);
  return location;
}

/** The upload's location with `digest=` added, leaving the registry's own parameters as they are. */
function withDigest(location: string, digest: string): string {
  const hash = location.indexOf("#");
  const base = hash >= 0 ? location.slice(0, hash) : location;
  return `${base}${base.includes("?") ? "&" : "?"}digest=${encodeURIComponent(digest)}`;
}
