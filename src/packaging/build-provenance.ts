import { PackagingError } from "./packaging-error.ts";

/** Where a build says it comes from: the time every archived file carries, and the commit. */
export interface BuildProvenance {
  /** Seconds since the epoch: SOURCE_DATE_EPOCH when set, else the last commit's time, else 0. */
  readonly sourceDate: number;
  /** The commit built, when the sources are a git checkout. */
  readonly revision: string | undefined;
}

/**
 * Never the clock: the same sources give the same archives and image, whenever they are built
 * (https://reproducible-builds.org/specs/source-date-epoch/ names the variable).
 */
export function buildProvenance(root: string, environment: Record<string, string | undefined> = process.env): BuildProvenance {
  const revision = git(root, ["rev-parse", "HEAD"]);
  const given = environment.SOURCE_DATE_EPOCH;
  if (given !== undefined && given !== "") {
    if (!/^\d+$/.test(given)) throw new PackagingError("SOURCE_DATE_EPOCH_INVALID", `SOURCE_DATE_EPOCH must be a whole number of seconds, not '${given}'`);
    return { sourceDate: Number(given), revision };
  }
  const committed = git(root, ["log", "-1", "--format=%ct"]);
  return { sourceDate: committed ? Number(committed) : 0, revision };
}

function git(root: string, args: string[]): string | undefined {
  const run = Bun.spawnSync(["git", ...args], { cwd: root, stdout: "pipe", stderr: "ignore" });
  const output = run.stdout.toString().trim();
  return run.exitCode === 0 && output !== "" ? output : undefined;
}
