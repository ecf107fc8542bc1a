import { deflateRawSync } from "node:zlib";
import { orderedEntries, type ArchiveEntry } from "./archive-entry.ts";
import { PackagingError } from "./packaging-error.ts";

/**
 * A zip archive of the entries, byte for byte the same for the same entries and time: sorted paths,
 * one modification time, Unix modes kept (so an unzip on Unix restores the executable bit), no
 * extra fields (what `zip -X` leaves out). Files are deflated; directories are stored.
 */
export function zipArchive(entries: readonly ArchiveEntry[], mtime: number): Uint8Array {
  const { time, date } = dosTime(mtime);
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of orderedEntries(entries)) {
    if (entry.kind === "symlink")
      throw new PackagingError(
        "ZIP_SYMLINK_UNSUPPORTED",
        `'${entry.path}' is a symbolic link; this zip writer holds files and directories only`,
      );
    const name = encoder.encode(entry.kind === "directory" ? `${entry.path}/` : entry.path);
    const data = entry.kind === "file" ? entry.data : new Uint8Array(0);
    const compressed = entry.kind === "file" ? deflateRawSync(data) : data;
    const method = entry.kind === "file" ? DEFLATE : STORE;
    const crc = Bun.hash.crc32(data);
    if (compressed.length > MAX_32 || data.length > MAX_32 || offset > MAX_32)
      throw new PackagingError("ARCHIVE_TOO_LARGE", `'${entry.path}' needs zip64, which this writer does not write`);
    // Both headers carry the same run of fields: version needed, flags, method, time, date, CRC, sizes, name length.
    const common = (view: DataView, at: number): void => {
      [VERSION_NEEDED, UTF8_NAMES, method, time, date].forEach((value, index) =>
        view.setUint16(at + 2 * index, value, true),
      );
      [crc, compressed.length, data.length].forEach((value, index) => view.setUint32(at + 10 + 4 * index, value, true));
      view.setUint16(at + 22, name.length, true);
    };
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    common(local, 4);
    locals.push(new Uint8Array(local.buffer), name, compressed);

    const unixMode = (entry.kind === "directory" ? S_IFDIR : S_IFREG) | (entry.mode & 0o7777);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, MADE_ON_UNIX, true);
    common(central, 6);
    // The Unix mode in the high half, the MS-DOS directory flag in the low.
    central.setUint32(38, ((unixMode << 16) | (entry.kind === "directory" ? 0x10 : 0)) >>> 0, true);
    central.setUint32(42, offset, true);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.length + compressed.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, centrals.length / 2, true);
  end.setUint16(10, centrals.length / 2, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  return Buffer.concat([...locals, ...centrals, new Uint8Array(end.buffer)]);
}

const encoder = new TextEncoder();
const STORE = 0;
const DEFLATE = 8;
const VERSION_NEEDED = 20;
const MADE_ON_UNIX = (3 << 8) | 20;
const UTF8_NAMES = 0x0800;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const MAX_32 = 0xffffffff;

/** MS-DOS date and time (UTC, two-second steps); it starts in 1980, so earlier times become 1980-01-01. */
function dosTime(seconds: number): { time: number; date: number } {
  const at = new Date(Math.max(seconds, 315532800) * 1000);
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}
