import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SHA256_DIGEST } from "../workspace/files/content-digest.ts";
import { SourceError } from "./source-error.ts";

/** A file of a pulled release: a bundle or its signature, by its plain name. */
export interface PulledFile {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** The release last served, as `current.json` in the copies' directory names it. */
export interface CurrentCopy {
  readonly digest: string;
  readonly ref: string;
  readonly directory: string;
}

const CURRENT = "current.json";
/** A file name a release may hold: no directory, nothing hidden, no way out. */
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/**
 * Pulled releases as rules directories on disk, so that the one loader reads them as it reads
 * RULES_DIR. Each release is written whole into a hidden directory, then renamed to its digest's
 * name; `current.json`, naming the release served, is replaced by a rename once its load
 * succeeded. A crash at any point leaves the last good copy whole (RULES_SOURCE_CACHE): a server
 * whose first pull fails starts from it. Without a cache directory the copies live in a private
 * temporary directory, removed by `close`.
 */
export class PulledCopies {
  private staged = 0;

  private constructor(
    readonly directory: string,
    private readonly temporary: boolean,
  ) {}

  /** Copies kept in `cacheDirectory` (created when missing), or in a temporary directory without one. */
  static open(cacheDirectory: string | undefined): PulledCopies {
    try {
      if (cacheDirectory === undefined)
        return new PulledCopies(mkdtempSync(join(tmpdir(), "rule-server-source-")), true);
      mkdirSync(cacheDirectory, { recursive: true });
      return new PulledCopies(cacheDirectory, false);
    } catch (error) {
      throw new SourceError(
        "SOURCE_CACHE_UNUSABLE",
        `cannot use ${cacheDirectory ?? "a temporary directory"} for pulled rules: ${messageOf(error)}`,
      );
    }
  }

  /** Writes a release's files into the directory named for its digest (kept when it is there already); its path. */
  stage(digest: string, files: readonly PulledFile[]): string {
    const target = join(this.directory, directoryName(digest));
    if (existsSync(target)) return target;
    const incoming = join(this.directory, `.incoming-${process.pid}-${++this.staged}`);
    try {
      rmSync(incoming, { recursive: true, force: true });
      mkdirSync(incoming);
      for (const file of files) {
        if (!PLAIN_NAME.test(file.name))
          throw new SourceError("SOURCE_PULL_FAILED", `the release names a file ${JSON.stringify(file.name)}`);
        writeFileSync(join(incoming, file.name), file.bytes, { flag: "wx" });
      }
      renameSync(incoming, target);
      return target;
    } catch (error) {
      rmSync(incoming, { recursive: true, force: true });
      if (error instanceof SourceError) throw error;
      throw new SourceError("SOURCE_CACHE_UNUSABLE", `cannot write the pulled rules: ${messageOf(error)}`);
    }
  }

  /** The release whose load succeeded becomes the current one; every other copy is removed. */
  accept(digest: string, ref: string): void {
    const name = directoryName(digest);
    const written = join(this.directory, `.${CURRENT}-${process.pid}`);
    writeFileSync(written, `${JSON.stringify({ digest, ref })}\n`);
    renameSync(written, join(this.directory, CURRENT));
    for (const entry of readdirSync(this.directory))
      if (entry !== name && entry !== CURRENT && entry.startsWith("sha256-"))
        rmSync(join(this.directory, entry), { recursive: true, force: true });
  }

  /** A staged release that did not load: removed, unless it is the current one. */
  discard(digest: string): void {
    if (this.current()?.digest === digest) return;
    rmSync(join(this.directory, directoryName(digest)), { recursive: true, force: true });
  }

  /** The release last accepted, when its copy is whole on disk. */
  current(): CurrentCopy | undefined {
    try {
      const named = JSON.parse(readFileSync(join(this.directory, CURRENT), "utf8")) as Partial<CurrentCopy>;
      if (typeof named.digest !== "string" || typeof named.ref !== "string") return undefined;
      const directory = join(this.directory, directoryName(named.digest));
      return existsSync(directory) ? { digest: named.digest, ref: named.ref, directory } : undefined;
    } catch {
      return undefined;
    }
  }

  /** Removes a temporary directory; a cache directory stays for the next start. */
  close(): void {
    if (this.temporary) rmSync(this.directory, { recursive: true, force: true });
  }
}

/** `sha256:<hex>` as a directory name. */
function directoryName(digest: string): string {
  if (!SHA256_DIGEST.test(digest))
    throw new SourceError("SOURCE_PULL_FAILED", `not a sha256 digest: ${JSON.stringify(digest)}`);
  return digest.replace(":", "-");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
