import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { ArchiveEntry } from "./archive-entry.ts";
import { tarArchive } from "./tar-writer.ts";

/** The run settings of an image: the `config` member of an OCI image configuration. */
export interface OciRunConfig {
  readonly User: string;
  readonly Entrypoint: readonly string[];
  readonly Env: readonly string[];
  readonly WorkingDir: string;
  readonly ExposedPorts: Record<string, Record<string, never>>;
  readonly StopSignal: string;
  readonly Labels: Record<string, string>;
}

export interface OciImage {
  /** The root file system, one layer. */
  readonly files: readonly ArchiveEntry[];
  readonly config: OciRunConfig;
  /** Seconds since the epoch: the image's `created` and every file's modification time. */
  readonly created: number;
  readonly architecture: string;
  readonly os: string;
  /** The name `podman load` and `skopeo` give the image, `rule-server:1.0.0` (annotation org.opencontainers.image.ref.name). */
  readonly refName: string;
}

export const MEDIA_TYPES = {
  index: "application/vnd.oci.image.index.v1+json",
  manifest: "application/vnd.oci.image.manifest.v1+json",
  config: "application/vnd.oci.image.config.v1+json",
  layer: "application/vnd.oci.image.layer.v1.tar+gzip",
} as const;

/**
 * An `oci-archive`: a tar of an OCI image layout (oci-layout, index.json, blobs/sha256/) holding
 * one manifest, its configuration and one gzip layer. Everything is content-addressed and stamped
 * with `created`, so the same files and settings give the same bytes, and no daemon is involved.
 */
export function ociArchive(image: OciImage): Uint8Array {
  const layer = tarArchive(image.files, image.created);
  const compressedLayer = gzipSync(layer);
  const created = new Date(image.created * 1000).toISOString().replace(".000Z", "Z");
  const blobs = new Map<string, Uint8Array>();
  const blob = (mediaType: string, bytes: Uint8Array): { mediaType: string; digest: string; size: number } => {
    const digest = sha256(bytes);
    blobs.set(digest, bytes);
    return { mediaType, digest, size: bytes.length };
  };
  const layerDescriptor = blob(MEDIA_TYPES.layer, compressedLayer);
  const configDescriptor = blob(
    MEDIA_TYPES.config,
    json({
      created,
      architecture: image.architecture,
      os: image.os,
      config: image.config,
      rootfs: { type: "layers", diff_ids: [sha256(layer)] },
      history: [{ created, created_by: "build.ts image (rule-server)" }],
    }),
  );
  const manifestDescriptor = blob(
    MEDIA_TYPES.manifest,
    json({
      schemaVersion: 2,
      mediaType: MEDIA_TYPES.manifest,
      config: configDescriptor,
      layers: [layerDescriptor],
      annotations: image.config.Labels,
    }),
  );
  const index = {
    schemaVersion: 2,
    mediaType: MEDIA_TYPES.index,
    manifests: [
      {
        ...manifestDescriptor,
        platform: { architecture: image.architecture, os: image.os },
        annotations: { "org.opencontainers.image.ref.name": image.refName },
      },
    ],
  };
  const entries: ArchiveEntry[] = [
    { kind: "file", path: "oci-layout", mode: 0o644, data: json({ imageLayoutVersion: "1.0.0" }) },
    { kind: "file", path: "index.json", mode: 0o644, data: json(index) },
    ...[...blobs].map(
      ([digest, bytes]): ArchiveEntry => ({
        kind: "file",
        path: `blobs/sha256/${digest.slice("sha256:".length)}`,
        mode: 0o644,
        data: bytes,
      }),
    ),
  ];
  return tarArchive(entries, image.created);
}

export function sha256(bytes: Uint8Array): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

function json(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}
