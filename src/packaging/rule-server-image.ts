import { readFileSync } from "node:fs";
import type { ArchiveEntry } from "./archive-entry.ts";
import type { OciImage, OciRunConfig } from "./oci-image-writer.ts";
import { entriesReaching, sharedLibraries } from "./shared-libraries.ts";

/**
 * The rule-server container image: the linux-x64 executable, exactly the shared libraries `ldd`
 * says it loads, and a non-root user. No shell, no package manager. deploy/container/Dockerfile
 * builds the same with Docker; test/packaging checks that the two agree.
 */
export const IMAGE = {
  /** The "nonroot" user of distroless images, so that a `runAsUser: 65532` policy fits either. */
  uid: 65532,
  gid: 65532,
  executable: "/usr/local/bin/rule-server",
  rulesDir: "/rules",
  port: 8080,
  stopSignal: "SIGTERM",
} as const;

export interface ImageSource {
  /** dist/rule-server-linux-x64. */
  readonly executable: string;
  readonly version: string;
  readonly description: string;
  readonly license: string;
  readonly revision: string | undefined;
  readonly sourceDate: number;
  /** Where the sources are, when package.json says (`repository`, `homepage`). */
  readonly source?: string | undefined;
  readonly url?: string | undefined;
}

export function ruleServerImage(source: ImageSource): OciImage {
  return {
    files: imageFiles(source.executable),
    config: imageRunConfig(source),
    created: source.sourceDate,
    architecture: "amd64",
    os: "linux",
    refName: `rule-server:${source.version}`,
  };
}

export function imageRunConfig(source: Omit<ImageSource, "executable">): OciRunConfig {
  return {
    User: `${IMAGE.uid}:${IMAGE.gid}`,
    Entrypoint: [IMAGE.executable],
    Env: ["PATH=/usr/local/bin", `RULES_DIR=${IMAGE.rulesDir}`, `PORT=${IMAGE.port}`],
    WorkingDir: "/",
    ExposedPorts: { [`${IMAGE.port}/tcp`]: {} },
    StopSignal: IMAGE.stopSignal,
    Labels: imageLabels(source),
  };
}

/** The org.opencontainers.image.* annotations, as labels; those not known are left out rather than guessed. */
function imageLabels(source: Omit<ImageSource, "executable">): Record<string, string> {
  const labels: Record<string, string> = {
    "org.opencontainers.image.created": new Date(source.sourceDate * 1000).toISOString().replace(".000Z", "Z"),
    "org.opencontainers.image.description": source.description,
    "org.opencontainers.image.licenses": source.license,
    "org.opencontainers.image.title": "rule-server",
    "org.opencontainers.image.version": source.version,
  };
  if (source.revision) labels["org.opencontainers.image.revision"] = source.revision;
  if (source.source) labels["org.opencontainers.image.source"] = source.source;
  if (source.url) labels["org.opencontainers.image.url"] = source.url;
  return Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function imageFiles(executable: string): ArchiveEntry[] {
  const text = (path: string, content: string): ArchiveEntry => ({
    kind: "file",
    path,
    mode: 0o644,
    data: new TextEncoder().encode(content),
  });
  return [
    { kind: "file", path: IMAGE.executable.slice(1), mode: 0o755, data: readFileSync(executable) },
    ...sharedLibraries(executable).flatMap((library) => entriesReaching(library)),
    text(
      "etc/passwd",
      `root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:${IMAGE.uid}:${IMAGE.gid}:nonroot:/home/nonroot:/sbin/nologin\n`,
    ),
    text("etc/group", `root:x:0:\nnonroot:x:${IMAGE.gid}:\n`),
    { kind: "directory", path: "home/nonroot", mode: 0o700, uid: IMAGE.uid, gid: IMAGE.gid },
    { kind: "directory", path: IMAGE.rulesDir.slice(1), mode: 0o755 },
    // Writable by everyone like any /tmp; Kubernetes mounts an emptyDir over it when the root is read-only.
    { kind: "directory", path: "tmp", mode: 0o1777 },
  ];
}
