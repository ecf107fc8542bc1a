import { PackagingError } from "./packaging-error.ts";

/** Where a build says it comes from: the time every archived file carries, and the commit. */
export interface BuildProvenance {
  /** Seconds since the epoch: SOURCE_DATE_EPOCH when set, else the last commit's time, else 0. */
  readonly sourceDate: number;
  /** The commit built, when the sources are a git checkout; `<commit>-dirty` when files differ from it. */
  readonly revision: string | undefined;
  /** The paths whose content is not the commit's (changed, added, removed or untracked), as git names them. */
  readonly uncommitted: readonly string[];
}

/**
 * Never the clock: the same sources give the same archives and image, whenever they are built
 * (https://reproducible-builds.org/specs/source-date-epoch/ names the variable). A tree with
 * uncommitted changes is not the commit it names, so its revision says `-dirty`, as
 * `git describe --dirty` does, and the build warns.
 */
export function buildProvenance(
  root: string,
  environment: Record<string, string | undefined> = process.env,
): BuildProvenance {
  const commit = git(root, ["rev-parse", "HEAD"]);
  const uncommitted = commit === undefined ? [] : uncommittedPaths(root);
  const revision = commit !== undefined && uncommitted.length > 0 ? `${commit}-dirty` : commit;
  const given = environment.SOURCE_DATE_EPOCH;
  if (given !== undefined && given !== "") {
    if (!/^\d+$/.test(given))
      throw new PackagingError(
        "SOURCE_DATE_EPOCH_INVALID",
        `SOURCE_DATE_EPOCH must be a whole number of seconds, not '${given}'`,
      );
    return { sourceDate: Number(given), revision, uncommitted };
  }
  const committed = git(root, ["log", "-1", "--format=%ct"]);
  return { sourceDate: committed ? Number(committed) : 0, revision, uncommitted };
}

/** `git status --porcelain`'s paths: tracked files that changed and untracked files git does not ignore. */
function uncommittedPaths(root: string): string[] {
  const status = Bun.spawnSync(["git", "status", "--porcelain=v1", "-z", "--untracked-files=all"], {
    cwd: root,
    stdout: "pipe",
    stderr: "ignore",
  });
  if (status.exitCode !== 0) return [];
  const paths: string[] = [];
  const fields = status.stdout.toString().split("\0");
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    paths.push(field.slice(3));
    // A rename or copy is followed by the path it came from.
    if (field[0] === "R" || field[0] === "C") i++;
  }
  return paths.sort();
}

function git(root: string, args: string[]): string | undefined {
  const run = Bun.spawnSync(["git", ...args], { cwd: root, stdout: "pipe", stderr: "ignore" });
  const output = run.stdout.toString().trim();
  return run.exitCode === 0 && output !== "" ? output : undefined;
}
