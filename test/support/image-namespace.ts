import { IMAGE_ID, machineFacts, namespaceProblems } from "./namespace-preflight.ts";
import { requireTool, systemPath } from "./system-tool.ts";

/**
 * Runs commands where the image's ids exist, as a container runtime would: unpacking its layer
 * (files owned by 0 and 65532), running it as 65532, and removing what was unpacked.
 *
 * An ordinary user gets a user namespace of their own, where they are root and their subordinate
 * ids from /etc/subuid and /etc/subgid are 1, 2, ... 65532 (`--map-auto --map-root-user`): files owned
 * by 65532 inside belong to one of those ids outside, which only such a namespace may remove.
 * Root stays in its own user namespace: it owns every id already, and newuidmap grants root no
 * range that /etc/subuid does not list, which on many machines lists none for root.
 * Either way, mount and PID namespaces of its own, so that its /proc and processes are its own.
 */

/** unshare runs newuidmap and newgidmap by name: its PATH holds the system directories. */
const UNSHARE_ENV = { PATH: systemPath(), LC_ALL: "C" };

export interface NamespaceOptions {
  /** Where to mount the namespace's own /proc, which Bun reads to find its own executable. */
  readonly mountProc?: string;
  /** Kill the command when unshare dies. */
  readonly killChild?: boolean;
}

/** The command running `argv` in namespaces of its own, as root there. */
export function inImageNamespace(argv: readonly string[], options: NamespaceOptions = {}): string[] {
  const user = process.getuid!() === 0 ? [] : ["--user", "--map-auto", "--map-root-user"];
  return [
    requireTool("unshare"),
    ...user,
    "--mount",
    "--pid",
    "--fork",
    ...(options.mountProc ? [`--mount-proc=${options.mountProc}`] : []),
    ...(options.killChild ? ["--kill-child"] : []),
    ...argv,
  ];
}

/** Starts `argv` so; its environment is unshare's, which finds newuidmap and newgidmap. */
export function spawnInImageNamespace(argv: readonly string[], options: NamespaceOptions = {}) {
  return Bun.spawn(inImageNamespace(argv, options), { env: UNSHARE_ENV, stdout: "pipe", stderr: "pipe" });
}

/** Runs `argv` so and returns its standard output; throws with its standard error when it fails. */
export function runInImageNamespace(argv: readonly string[], options: NamespaceOptions = {}): string {
  const command = inImageNamespace(argv, options);
  const run = Bun.spawnSync(command, { env: UNSHARE_ENV, stdout: "pipe", stderr: "pipe" });
  if (run.exitCode !== 0)
    throw new Error(`\`${command.join(" ")}\` failed (exit status ${run.exitCode}): ${run.stderr.toString().trim()}`);
  return run.stdout.toString();
}

/** Throws, listing what is missing and how to provide it, unless this machine can run a command as the image's user so. */
export function requireImageNamespace(): void {
  const problems = namespaceProblems(machineFacts());
  if (problems.length === 0) {
    // What the checks cannot see (newuidmap without its setuid bit, a container that forbids
    // namespaces or mounting /proc, ...) shows by trying: /proc mounted, then a command run as 65532.
    try {
      runInImageNamespace(
        [requireTool("chroot"), `--userspec=${IMAGE_ID}:${IMAGE_ID}`, "/", requireTool("env"), "true"],
        { mountProc: "/proc" },
      );
    } catch (error) {
      problems.push(`could not run a command as ${IMAGE_ID} in namespaces of its own: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) throw new Error(`the image tests cannot run on this machine:\n- ${problems.join("\n- ")}`);
}
