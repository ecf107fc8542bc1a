import { mkdirSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cachedBuild } from "./build-cache.ts";
import { PROJECT_ROOT } from "./run-cli.ts";
import { sourceTreeHash } from "./source-tree-hash.ts";

/**
 * What `bun build.ts <target> --out <directory>` writes for this source tree, built at most once per
 * tree and target into `$TMPDIR/rule-server-builds-<uid>/rule-server-build-<tree hash>/<target>` and shared by every test,
 * in this run and the next ones, until the tree changes. Read it, never write into it.
 */
export function releaseBuild(target: string): string {
  const treeHash = sourceTreeHash(PROJECT_ROOT);
  return cachedBuild({
    cacheRoot: userCacheRoot(),
    treeHash,
    name: target,
    make: (out) => runBuild([target], out),
    sourcesUnchanged: () => sourceTreeHash(PROJECT_ROOT) === treeHash,
  });
}

/**
 * The directory one user's builds are cached in: the temporary directory is shared by every user
 * of the machine, and another user's builds are neither touched (they cannot be) nor trusted.
 */
export function userCacheRoot(): string {
  const uid = process.getuid?.() ?? 0;
  const root = join(tmpdir(), `rule-server-builds-${uid}`);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const owner = statSync(root).uid;
  if (owner !== uid) throw new Error(`${root} belongs to user ${owner}, not to this user (${uid}): remove it`);
  return root;
}

/** The browser module of this tree's release build, `rule-cascade.js`, with `rule-cascade.d.ts` beside it. */
export function builtBrowserModule(): string {
  return join(releaseBuild("browser"), "browser", "rule-cascade.js");
}

/**
 * A build of its own in a fresh directory the caller removes: for a test whose point is that two
 * builds give the same bytes, held against releaseBuild's.
 */
export function buildRelease(...names: string[]): string {
  const out = mkdtempSync(join(tmpdir(), "rule-server-dist-"));
  runBuild(names, out);
  return out;
}

/** Runs `bun build.ts <names> --out <out>`; a failed build throws with its output. */
function runBuild(names: readonly string[], out: string): void {
  const build = Bun.spawnSync([process.execPath, join(PROJECT_ROOT, "build.ts"), ...names, "--out", out], {
    cwd: PROJECT_ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (build.exitCode !== 0)
    throw new Error(`build.ts ${names.join(" ")} failed: ${build.stdout.toString()}${build.stderr.toString()}`);
}
