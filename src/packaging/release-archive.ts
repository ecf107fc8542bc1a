import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { ArchiveEntry } from "./archive-entry.ts";
import { tarArchive } from "./tar-writer.ts";
import { zipArchive } from "./zip-writer.ts";

/**
 * What a release archive holds besides the executable, as paths of the project: what the README's
 * install steps use (the unit, the manifests, the example rules), the README and the license.
 */
const RELEASE_FILES = ["README.md", "LICENSE"] as const;
const RELEASE_DIRECTORIES = ["deploy/systemd", "deploy/kubernetes", "deploy/ci", "rules"] as const;

export interface ReleaseArchive {
  readonly root: string;
  /** The executable to ship, and the name it has in the archive (`rule-server`, `rule-server.exe`). */
  readonly executable: string;
  readonly executableName: string;
  /** The one top-level directory everything unpacks into, `rule-server-1.0.0-linux-x64`. */
  readonly directory: string;
  /** Windows users get a zip, everyone else a gzip tar. */
  readonly format: "tar.gz" | "zip";
  readonly sourceDate: number;
  /** Written as BUILD-INFO.json: what the archive was built from, uncommitted changes included. */
  readonly buildInfo: BuildInfo;
}

/** Where a release archive comes from, as its BUILD-INFO.json says. */
export interface BuildInfo {
  readonly version: string;
  /** The commit; `<commit>-dirty` when the tree had uncommitted changes. */
  readonly revision: string | undefined;
  readonly sourceDate: number;
  /** Present only for a tree with uncommitted changes: the paths that differed from the commit. */
  readonly uncommitted?: readonly string[];
}

export function releaseArchive(archive: ReleaseArchive): Uint8Array {
  const entries: ArchiveEntry[] = [
    {
      kind: "file",
      path: `${archive.directory}/${archive.executableName}`,
      mode: 0o755,
      data: readFileSync(archive.executable),
    },
    ...releaseFiles(archive.root).map(
      (path): ArchiveEntry => ({
        kind: "file",
        path: `${archive.directory}/${path}`,
        mode: 0o644,
        data: readFileSync(join(archive.root, path)),
      }),
    ),
    {
      kind: "file",
      path: `${archive.directory}/BUILD-INFO.json`,
      mode: 0o644,
      data: new TextEncoder().encode(`${JSON.stringify(archive.buildInfo, null, 2)}\n`),
    },
  ];
  return archive.format === "zip"
    ? zipArchive(entries, archive.sourceDate)
    : gzipSync(tarArchive(entries, archive.sourceDate));
}

/** The project files shipped, relative to the root; dot files (editor and OS litter) are left out. */
function releaseFiles(root: string): string[] {
  const files: string[] = [...RELEASE_FILES];
  const walk = (directory: string): void => {
    for (const name of readdirSync(join(root, directory)).sort()) {
      if (name.startsWith(".")) continue;
      const path = `${directory}/${name}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  for (const directory of RELEASE_DIRECTORIES) walk(directory);
  return files;
}
