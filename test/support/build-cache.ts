import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

/** Every source tree's builds share one directory, `<cache root>/rule-server-build-<tree hash>`. */
export const TREE_DIRECTORY_PREFIX = "rule-server-build-";
/** A tree's directory nobody asked for in this long belongs to a tree gone by: the next new tree removes it. */
export const STALE_TREE_MS = 60 * 60 * 1000;
/** How long a caller waits for another process's build of the same artifact before giving up. */
const WAIT_MS = 15 * 60 * 1000;
/** A lock without its owner's pid this old was left by a process that died as it took it. */
const ORPHAN_LOCK_MS = 10_000;

export interface CachedBuild {
  /** Where the trees' directories live: the OS temp dir for the tests. */
  readonly cacheRoot: string;
  /** The source tree's hash (test/support/source-tree-hash.ts). */
  readonly treeHash: string;
  /** The artifact, a directory of its own in the tree's directory: a build target. */
  readonly name: string;
  /** Writes the artifact into the empty directory it is given; throws when the build fails. */
  readonly make: (out: string) => void;
  /**
   * Whether the sources still have the hash they had when asked, once the build is made: a build
   * made while they changed is given to its caller but kept for nobody else, since it may hold
   * some of the changes.
   */
  readonly sourcesUnchanged: () => boolean;
}

/**
 * The artifact's directory, made at most once per tree, however many processes ask at once: the
 * first to take the lock (an atomic mkdir) builds into a directory of its own and renames it into
 * place, so nobody sees half a build; the others wait for it. A lock whose process died is taken
 * over. A failed build throws and leaves nothing behind, so that the next caller tries again.
 * A build made while the sources changed is left where it was made, under a name nobody asks for,
 * and removed with its tree's directory.
 */
export function cachedBuild(build: CachedBuild): string {
  const tree = join(build.cacheRoot, `${TREE_DIRECTORY_PREFIX}${build.treeHash}`);
  const done = join(tree, build.name);
  if (!existsSync(tree)) {
    mkdirSync(tree, { recursive: true });
    removeStaleTrees(build.cacheRoot, tree);
  }
  // Asked for now: removeStaleTrees spares it.
  const now = new Date();
  utimesSync(tree, now, now);
  const lock = join(tree, `${build.name}.lock`);
  const deadline = Date.now() + WAIT_MS;
  while (!existsSync(done)) {
    if (takeLock(lock)) {
      try {
        if (!existsSync(done)) return makeInPlace(build, tree, done);
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    } else if (lockAbandoned(lock)) {
      rmSync(lock, { recursive: true, force: true });
    } else {
      if (Date.now() > deadline) throw new Error(`gave up waiting for ${lock} after ${WAIT_MS / 1000} s`);
      Bun.sleepSync(200);
    }
  }
  return done;
}

/** The directory the caller is to use: the build put in place, or one made while the sources changed. */
function makeInPlace(build: CachedBuild, tree: string, done: string): string {
  const partial = mkdtempSync(join(tree, `${build.name}.partial-`));
  try {
    build.make(partial);
    if (!build.sourcesUnchanged()) return partial;
    renameSync(partial, done);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    // Two builders only when one took over a lock it thought abandoned: the first one's build stands.
    if (!existsSync(done)) throw error;
  }
  return done;
}

function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  writeFileSync(join(lock, "pid"), String(process.pid));
  return true;
}

function lockAbandoned(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, "pid"), "utf8"));
  } catch {
    // Released meanwhile (not abandoned), or taken by a process that has not written its pid yet.
    try {
      return Date.now() - statSync(lock).mtimeMs > ORPHAN_LOCK_MS;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Other trees' directories, unused for STALE_TREE_MS and not being built into. */
function removeStaleTrees(cacheRoot: string, keep: string): void {
  for (const entry of readdirSync(cacheRoot, { withFileTypes: true })) {
    const path = join(cacheRoot, entry.name);
    if (!entry.isDirectory() || !entry.name.startsWith(TREE_DIRECTORY_PREFIX) || path === keep) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs < STALE_TREE_MS) continue;
      if (readdirSync(path).some((name) => name.endsWith(".lock"))) continue;
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another process at the same time.
    }
  }
}
