import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";

/**
 * How many CPUs this process may use, for `RULE_SERVER_PROCESSES=auto`: its CPU affinity (taskset,
 * systemd's CPUAffinity, a cpuset), lowered by the CPU quota of its cgroup and of every cgroup above
 * it (a container's CPU limit), rounded down, at least 1. Read from /proc and /sys; where they
 * cannot be read, the count the runtime reports.
 */
export interface AvailableCpus {
  readonly cpus: number;
  /** CPUs in the affinity mask. */
  readonly affinity: number;
  /** The tightest cgroup quota in CPUs (may be fractional), or undefined without one. */
  readonly quota: number | undefined;
}

/** Reads a file's text, or undefined when it is not there. */
export type ReadText = (path: string) => string | undefined;

const readText: ReadText = (path) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

export function availableCpus(read: ReadText = readText, fallback: number = availableParallelism()): AvailableCpus {
  const affinity = affinityCount(read("/proc/self/status")) ?? fallback;
  const quota = cgroupQuota(read);
  const cpus = Math.max(1, Math.floor(quota === undefined ? affinity : Math.min(affinity, quota)));
  return { cpus, affinity, quota };
}

/** The number of CPUs in `Cpus_allowed_list` of /proc/self/status (`0-3,8,10-11`). */
export function affinityCount(status: string | undefined): number | undefined {
  const list = /^Cpus_allowed_list:\s*(.+)$/m.exec(status ?? "")?.[1]?.trim();
  if (list === undefined || list === "") return undefined;
  let count = 0;
  for (const range of list.split(",")) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(range.trim());
    if (!match) return undefined;
    count += match[2] === undefined ? 1 : Number(match[2]) - Number(match[1]) + 1;
  }
  return count > 0 ? count : undefined;
}

interface CgroupMount {
  readonly version: 1 | 2;
  /** The path inside the cgroup hierarchy that is mounted (`/` unless a container sees part of it). */
  readonly root: string;
  readonly mountPoint: string;
}

/** The cgroup v2 mount and the v1 mount holding the `cpu` controller, from /proc/self/mountinfo. */
function cgroupMounts(mountinfo: string): CgroupMount[] {
  const mounts: CgroupMount[] = [];
  for (const line of mountinfo.split("\n")) {
    // `id parent major:minor root mountPoint options [optional...] - type source superOptions`
    const [before, after] = line.split(" - ");
    if (before === undefined || after === undefined) continue;
    const fields = before.split(" ");
    const [type, , superOptions] = after.split(" ");
    const root = unescapeMountPath(fields[3] ?? "/");
    const mountPoint = unescapeMountPath(fields[4] ?? "");
    if (type === "cgroup2") mounts.push({ version: 2, root, mountPoint });
    else if (type === "cgroup" && (superOptions ?? "").split(",").includes("cpu"))
      mounts.push({ version: 1, root, mountPoint });
  }
  return mounts;
}

/** mountinfo writes space, tab, newline and backslash as octal escapes. */
function unescapeMountPath(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/** This process's cgroup path in the v2 hierarchy (`0::/path`) or in the v1 one with `cpu`. */
function cgroupPath(cgroups: string, version: 1 | 2): string | undefined {
  for (const line of cgroups.split("\n")) {
    const match = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    if (version === 2 && match[1] === "0" && match[2] === "") return match[3];
    if (version === 1 && match[2]!.split(",").includes("cpu")) return match[3];
  }
  return undefined;
}

/**
 * The tightest quota, in CPUs, from this process's cgroup up to the mount's top. Inside a container
 * the path /proc names may be the host's, outside the mount: then the mount's top is its cgroup.
 */
function cgroupQuota(read: ReadText): number | undefined {
  const mountinfo = read("/proc/self/mountinfo");
  const cgroups = read("/proc/self/cgroup");
  if (mountinfo === undefined || cgroups === undefined) return undefined;
  let tightest: number | undefined;
  for (const mount of cgroupMounts(mountinfo)) {
    const path = cgroupPath(cgroups, mount.version);
    if (path === undefined) continue;
    const inside =
      path === mount.root || path.startsWith(mount.root.endsWith("/") ? mount.root : `${mount.root}/`)
        ? path.slice(mount.root.length)
        : "";
    let directory = join(mount.mountPoint, inside);
    if (read(join(directory, mount.version === 2 ? "cgroup.controllers" : "cpu.cfs_period_us")) === undefined)
      directory = mount.mountPoint;
    for (;;) {
      const quota =
        mount.version === 2
          ? quotaV2(read(join(directory, "cpu.max")))
          : quotaV1(read(join(directory, "cpu.cfs_quota_us")), read(join(directory, "cpu.cfs_period_us")));
      if (quota !== undefined && (tightest === undefined || quota < tightest)) tightest = quota;
      if (directory === mount.mountPoint || directory === dirname(directory)) break;
      directory = dirname(directory);
    }
  }
  return tightest;
}

/** `cpu.max`: `max 100000` (no quota) or `<quota> <period>` in microseconds. */
function quotaV2(text: string | undefined): number | undefined {
  const [quota, period] = (text ?? "").trim().split(/\s+/);
  if (quota === undefined || quota === "max" || period === undefined) return undefined;
  const value = Number(quota) / Number(period);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** `cpu.cfs_quota_us` (-1: no quota) over `cpu.cfs_period_us`. */
function quotaV1(quotaText: string | undefined, periodText: string | undefined): number | undefined {
  const quota = Number(quotaText?.trim());
  const period = Number(periodText?.trim());
  if (!(quota > 0) || !(period > 0)) return undefined;
  return quota / period;
}
