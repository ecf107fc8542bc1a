import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** The checksums file of a release directory, in the form `sha256sum --check` reads. */
export const CHECKSUMS_FILE = "SHA256SUMS";

/** A line of `sha256sum` output: the digest, a space, a space (text) or `*` (binary), the file. */
const LINE = /^([0-9a-f]{64}) [ *](.+)$/;

/**
 * Writes `dist/SHA256SUMS` after a build that wrote `files` (paths inside `dist`): their lines are
 * replaced or added, and the lines of what an earlier build wrote are kept while the file is still
 * there, so that `make package` after `make build` leaves the other artifacts vouched for. Lines
 * are sorted by file name. Returns the path written.
 */
export function writeChecksums(dist: string, files: readonly string[]): string {
  const path = join(dist, CHECKSUMS_FILE);
  const previous = existsSync(path) ? readFileSync(path, "utf8") : "";
  const written = new Map(files.map((file) => [relative(dist, file), sha256(file)]));
  writeFileSync(
    path,
    checksumsText(previous, written, (name) => existsSync(join(dist, name))),
  );
  return path;
}

/**
 * The text of SHA256SUMS: `written` (file name to digest) over the lines of `previous`, whose
 * other lines stay when `present` says their file is still there (a line for a missing file would
 * fail `sha256sum --check`). A line that is not a checksum line is dropped.
 */
export function checksumsText(
  previous: string,
  written: ReadonlyMap<string, string>,
  present: (name: string) => boolean,
): string {
  const digests = new Map<string, string>();
  for (const line of previous.split("\n")) {
    const match = LINE.exec(line);
    if (match !== null && !written.has(match[2]!) && present(match[2]!)) digests.set(match[2]!, match[1]!);
  }
  for (const [name, digest] of written) digests.set(name, digest);
  const names = [...digests.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((name) => `${digests.get(name)}  ${name}\n`).join("");
}

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}
