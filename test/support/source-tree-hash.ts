import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Folders whose content no build reads: only whether their files are committed shows in a build. */
const NOT_BUILT_FROM = ["test/", "bench/"];

/**
 * The paths whose content a release build reads, for a tree that is not a git checkout
 * (node_modules stands behind package-lock.json).
 */
const BUILD_INPUTS = [
  "src",
  "editors",
  "rules",
  "deploy",
  "build.ts",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "openapi.yaml",
  "README.md",
  "LICENSE",
];

/**
 * A hash of what a release build of this tree depends on, the key of the shared build: the Bun
 * that builds, SOURCE_DATE_EPOCH, the commit and which files differ from it (BUILD-INFO.json and
 * the image record both, and take their time from the commit), and the path and content of every
 * file git lists, tracked or untracked and not ignored, but for the tests' and benchmarks' content,
 * which no build reads: editing a test again does not call for a new build. Outside git, the
 * build's inputs.
 */
export function sourceTreeHash(root: string, environment: Record<string, string | undefined> = process.env): string {
  const hash = createHash("sha256");
  const field = (text: string): void => {
    hash.update(`${Buffer.byteLength(text)}:`).update(text);
  };
  field(`bun ${Bun.version}`);
  field(`SOURCE_DATE_EPOCH=${environment.SOURCE_DATE_EPOCH ?? ""}`);
  const commit = git(root, ["rev-parse", "HEAD"])?.trim();
  const listed =
    commit === undefined ? undefined : git(root, ["ls-files", "-z", "--cached", "--others", "--exclude-standard"]);
  field(`commit ${commit ?? "none"}`);
  if (commit !== undefined)
    field(git(root, ["status", "--porcelain=v1", "-z", "--untracked-files=all"]) ?? "status unknown");
  const files =
    listed === undefined
      ? filesUnder(root, BUILD_INPUTS)
      : listed.split("\0").filter((file) => file !== "" && !NOT_BUILT_FROM.some((folder) => file.startsWith(folder)));
  for (const file of [...new Set(files)].sort()) {
    field(file);
    // A tracked file deleted from the working tree is listed still: its absence is part of the tree.
    const path = join(root, file);
    if (!existsSync(path) || !statSync(path).isFile()) hash.update("-");
    else {
      const content = readFileSync(path);
      hash.update(`+${content.length}:`).update(content);
    }
  }
  return hash.digest("hex").slice(0, 24);
}

function filesUnder(root: string, paths: readonly string[]): string[] {
  return paths.flatMap((path) => {
    const full = join(root, path);
    if (!existsSync(full)) return [];
    if (!statSync(full).isDirectory()) return [path];
    return (
      readdirSync(full, { recursive: true, withFileTypes: true })
        .map((entry) => ({ entry, file: join(entry.parentPath, entry.name).slice(root.length + 1) }))
        // Installed packages and build output (editors/vscode/dist) are not sources.
        .filter(({ entry, file }) => entry.isFile() && !/(^|\/)(node_modules|dist)\//.test(file))
        .map(({ file }) => file)
    );
  });
}

function git(root: string, args: string[]): string | undefined {
  const run = Bun.spawnSync(["git", ...args], { cwd: root, stdout: "pipe", stderr: "ignore" });
  return run.exitCode === 0 ? run.stdout.toString() : undefined;
}
