import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { requireTool, systemPath, systemTool } from "./system-tool.ts";

export interface PodmanSandbox {
  /** Runs `podman <args>` in the sandbox and waits for it. */
  run(...args: string[]): { exitCode: number; stdout: string; stderr: string };
  /** Stops the pause process with which rootless podman keeps its user namespace; root's podman has none. */
  stop(): void;
}

/**
 * podman with everything of its own under `directory`, so that the test leaves nothing in the
 * machine's images nor in the user's home, as root and rootless alike: storage (vfs, which needs no
 * kernel overlay support), runtime files, and the configuration and caches that rootless podman
 * would otherwise read and write under $HOME.
 */
export function podmanSandbox(directory: string): PodmanSandbox {
  const runtimeDirectory = join(directory, "xdg-runtime");
  mkdirSync(runtimeDirectory, { recursive: true, mode: 0o700 });
  // runc where installed: crun refuses hybrid cgroups v1. cgroupfs and a file for events: there
  // may be no systemd user session, nor a journal, for an ordinary user (podman warns, then falls back).
  const runc = systemTool("runc");
  const command = (args: string[]): string[] => [
    requireTool("podman"),
    "--root",
    join(directory, "root"),
    "--runroot",
    join(directory, "run"),
    "--storage-driver",
    "vfs",
    "--cgroup-manager",
    "cgroupfs",
    "--events-backend",
    "file",
    ...(runc ? ["--runtime", runc] : []),
    ...args,
  ];
  const env = {
    ...process.env,
    // podman runs conmon, runc, newuidmap and newgidmap, some in sbin directories.
    PATH: systemPath(),
    XDG_RUNTIME_DIR: runtimeDirectory,
    XDG_CONFIG_HOME: join(directory, "config"),
    XDG_DATA_HOME: join(directory, "data"),
    XDG_CACHE_HOME: join(directory, "cache"),
  };
  return {
    run: (...args) => {
      const run = Bun.spawnSync(command(args), { env, stdout: "pipe", stderr: "pipe" });
      return { exitCode: run.exitCode, stdout: run.stdout.toString(), stderr: run.stderr.toString() };
    },
    stop: () => {
      let pid: number;
      try {
        pid = Number(readFileSync(join(runtimeDirectory, "libpod", "tmp", "pause.pid"), "utf8"));
      } catch {
        return;
      }
      try {
        process.kill(pid, "SIGTERM");
      } catch {
        // Gone already.
      }
    },
  };
}
