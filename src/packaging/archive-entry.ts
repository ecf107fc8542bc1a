import { PackagingError } from "./packaging-error.ts";

/**
 * One entry of a tar or zip archive. Paths are relative, with `/` separators and no trailing
 * slash; owners default to 0. Nothing here carries a time: the writers stamp every entry with one.
 */
export type ArchiveEntry =
  | {
      readonly kind: "file";
      readonly path: string;
      readonly mode: number;
      readonly data: Uint8Array;
      readonly uid?: number;
      readonly gid?: number;
    }
  | {
      readonly kind: "directory";
      readonly path: string;
      readonly mode: number;
      readonly uid?: number;
      readonly gid?: number;
    }
  | {
      readonly kind: "symlink";
      readonly path: string;
      readonly target: string;
      readonly uid?: number;
      readonly gid?: number;
    };

const DIRECTORY_MODE = 0o755;

/**
 * The entries in the one order both writers use, byte order of the path (so a directory comes
 * before what it holds), with every missing parent directory added. The same input in any order
 * gives the same archive.
 */
export function orderedEntries(entries: readonly ArchiveEntry[]): ArchiveEntry[] {
  const byPath = new Map<string, ArchiveEntry>();
  for (const entry of entries) {
    if (
      entry.path === "" ||
      entry.path.startsWith("/") ||
      entry.path.endsWith("/") ||
      entry.path.split("/").some((part) => part === "" || part === "." || part === "..")
    ) {
      throw new PackagingError(
        "ARCHIVE_PATH_INVALID",
        `archive path '${entry.path}' must be relative, without empty, '.' or '..' parts`,
      );
    }
    const earlier = byPath.get(entry.path);
    // A directory or a link named twice alike (a parent, or a link on the way to two files) is one entry; anything else twice is a mistake.
    const same =
      earlier &&
      ((earlier.kind === "directory" && entry.kind === "directory") ||
        (earlier.kind === "symlink" && entry.kind === "symlink" && earlier.target === entry.target));
    if (earlier && !same) {
      throw new PackagingError("ARCHIVE_ENTRY_DUPLICATE", `archive path '${entry.path}' is given twice`);
    }
    if (!earlier) byPath.set(entry.path, entry);
  }
  for (const path of [...byPath.keys()]) {
    const parts = path.split("/");
    for (let end = 1; end < parts.length; end++) {
      const parent = parts.slice(0, end).join("/");
      const existing = byPath.get(parent);
      if (existing && existing.kind !== "directory")
        throw new PackagingError(
          "ARCHIVE_ENTRY_DUPLICATE",
          `archive path '${parent}' is both a ${existing.kind} and a directory`,
        );
      if (!existing) byPath.set(parent, { kind: "directory", path: parent, mode: DIRECTORY_MODE });
    }
  }
  const encoder = new TextEncoder();
  return [...byPath.values()].sort((a, b) => Buffer.compare(encoder.encode(a.path), encoder.encode(b.path)));
}
