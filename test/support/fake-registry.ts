import { OCI_MANIFEST } from "../../src/oci/media-types.ts";
import { type ArtifactFile, layerMediaType, rulesManifestBytes } from "../../src/oci/rules-manifest.ts";
import { sha256Digest } from "../../src/workspace/files/content-digest.ts";

/**
 * A registry made up by a test (Bun.serve on 127.0.0.1), to answer what a real one never would:
 * tampered or truncated blobs, huge manifests, other artifacts, hanging answers. It serves one
 * artifact (any repository, any tag) unless `answer` answers first; it records every request.
 */
export interface FakeRegistry {
  /** `127.0.0.1:PORT`. */
  readonly host: string;
  /** `METHOD /path` of each request, in order. */
  readonly requests: string[];
  /** The Authorization header of each request, in order (`undefined` when it had none). */
  readonly authorizations: (string | undefined)[];
  stop(): Promise<void>;
}

/** A manifest and the blobs it refers to, as a registry stores them. */
export interface ServedArtifact {
  readonly manifest: Uint8Array;
  readonly digest: string;
  readonly blobs: Map<string, Uint8Array>;
}

/**
 * The rules artifact of these files, its manifest's JSON changed by `edit` when given (to make it
 * another artifact, or invalid).
 */
export function servedArtifact(files: readonly ArtifactFile[], edit?: (manifest: any) => void): ServedArtifact {
  const blobs = new Map(files.map((file) => [sha256Digest(file.bytes), file.bytes]));
  let manifest = rulesManifestBytes(
    files.map((file) => ({
      name: file.name,
      descriptor: {
        mediaType: layerMediaType(file.name),
        digest: sha256Digest(file.bytes),
        size: file.bytes.byteLength,
      },
    })),
  );
  if (edit) {
    const json = JSON.parse(new TextDecoder().decode(manifest));
    edit(json);
    manifest = new TextEncoder().encode(JSON.stringify(json));
  }
  return { manifest, digest: sha256Digest(manifest), blobs };
}

export function startFakeRegistry(options: {
  artifact?: ServedArtifact;
  answer?: (request: Request, url: URL) => Response | Promise<Response> | undefined;
}): FakeRegistry {
  const requests: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      requests.push(`${request.method} ${url.pathname}`);
      authorizations.push(request.headers.get("authorization") ?? undefined);
      const answered = await options.answer?.(request, url);
      if (answered) return answered;
      const artifact = options.artifact;
      const manifest = /^\/v2\/.+\/manifests\/[^/]+$/.test(url.pathname);
      const blob = /^\/v2\/.+\/blobs\/(sha256:[a-f0-9]{64})$/.exec(url.pathname)?.[1];
      if (artifact && manifest) {
        return new Response(request.method === "HEAD" ? null : artifact.manifest, {
          headers: {
            "content-type": OCI_MANIFEST,
            "docker-content-digest": artifact.digest,
            "content-length": String(artifact.manifest.byteLength),
          },
        });
      }
      const bytes = blob ? artifact?.blobs.get(blob) : undefined;
      if (bytes) return new Response(bytes, { headers: { "content-type": "application/octet-stream" } });
      return Response.json({ errors: [{ code: "NAME_UNKNOWN", message: "not here" }] }, { status: 404 });
    },
  });
  return { host: `127.0.0.1:${server.port}`, requests, authorizations, stop: () => server.stop(true) };
}
