import { orderedEntries, type ArchiveEntry } from "./archive-entry.ts";
import { PackagingError } from "./packaging-error.ts";

/**
 * A POSIX ustar archive of the entries, byte for byte the same for the same entries and time: sorted
 * paths, numeric owners without names, one modification time. What GNU tar writes with --sort=name
 * --mtime --owner=0 --group=0 --numeric-owner, without depending on which tar a machine has.
 */
export function tarArchive(entries: readonly ArchiveEntry[], mtime: number): Uint8Array {
  const blocks: Uint8Array[] = [];
  let length = 0;
  for (const entry of orderedEntries(entries)) {
    const data = entry.kind === "file" ? entry.data : new Uint8Array(0);
    const header = tarHeader(entry, data.length, mtime);
    const padded = new Uint8Array(Math.ceil(data.length / BLOCK) * BLOCK);
    padded.set(data);
    blocks.push(header, padded);
    length += header.length + padded.length;
  }
  // Two empty blocks end the archive.
  const out = new Uint8Array(length + 2 * BLOCK);
  let offset = 0;
  for (const block of blocks) {
    out.set(block, offset);
    offset += block.length;
  }
  return out;
}

const BLOCK = 512;
const encoder = new TextEncoder();
/** The largest size an 11-digit octal field holds. */
const MAX_SIZE = 0o77777777777;

function tarHeader(entry: ArchiveEntry, size: number, mtime: number): Uint8Array {
  if (size > MAX_SIZE)
    throw new PackagingError("ARCHIVE_TOO_LARGE", `'${entry.path}' is larger than a ustar entry can hold`);
  const header = new Uint8Array(BLOCK);
  const [prefix, name] = splitName(entry.kind === "directory" ? `${entry.path}/` : entry.path);
  const put = (offset: number, width: number, text: string): void => {
    header.set(encoder.encode(text).subarray(0, width), offset);
  };
  const octal = (offset: number, width: number, value: number): void =>
    put(offset, width, `${value.toString(8).padStart(width - 1, "0")}\0`);
  put(0, 100, name);
  octal(100, 8, entry.kind === "symlink" ? 0o777 : entry.mode & 0o7777);
  octal(108, 8, entry.uid ?? 0);
  octal(116, 8, entry.gid ?? 0);
  octal(124, 12, size);
  octal(136, 12, Math.max(0, Math.floor(mtime)));
  put(156, 1, entry.kind === "file" ? "0" : entry.kind === "directory" ? "5" : "2");
  if (entry.kind === "symlink") {
    if (encoder.encode(entry.target).length > 100)
      throw new PackagingError("ARCHIVE_PATH_TOO_LONG", `the link target of '${entry.path}' is longer than 100 bytes`);
    put(157, 100, entry.target);
  }
  put(257, 6, "ustar\0");
  put(263, 2, "00");
  put(345, 155, prefix);
  // The checksum is taken with its own field as eight spaces.
  header.fill(0x20, 148, 156);
  const checksum = header.reduce((sum, byte) => sum + byte, 0);
  put(148, 8, `${checksum.toString(8).padStart(6, "0")}\0 `);
  return header;
}

/** ustar keeps a path of up to 255 bytes as a prefix of up to 155 and a name of up to 100, split at a slash. */
function splitName(path: string): [string, string] {
  const bytes = encoder.encode(path).length;
  if (bytes <= 100) return ["", path];
  for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) {
    const prefix = path.slice(0, slash);
    const name = path.slice(slash + 1);
    if (encoder.encode(prefix).length <= 155 && name !== "" && encoder.encode(name).length <= 100)
      return [prefix, name];
  }
  throw new PackagingError("ARCHIVE_PATH_TOO_LONG", `'${path}' is too long for a ustar archive`);
}
