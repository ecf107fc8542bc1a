import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { posix } from "node:path";
import type { ArchiveEntry } from "./archive-entry.ts";
import { PackagingError } from "./packaging-error.ts";

/**
 * The shared libraries an executable loads, the program loader among them, as absolute paths on
 * this machine: what `ldd` lists, without the kernel's vDSO (it has no file). A statically linked
 * executable needs none.
 */
export function sharedLibraries(executable: string): string[] {
  const ldd = Bun.spawnSync(["ldd", executable], {
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: "/usr/bin:/bin", LC_ALL: "C" },
  });
  const output = ldd.stdout.toString() + ldd.stderr.toString();
  if (/not a dynamic executable|statically linked/.test(output)) return [];
  if (ldd.exitCode !== 0) throw new PackagingError("LDD_FAILED", `ldd ${executable} failed: ${output.trim()}`);
  return parseLdd(output);
}

/** Reads ldd's lines: `name => /path (0x...)`, `/path (0x...)` for the loader, `name (0x...)` for the vDSO. */
export function parseLdd(output: string): string[] {
  const paths: string[] = [];
  for (const line of output
    .split("\n")
    .map((text) => text.trim())
    .filter(Boolean)) {
    const missing = /^(\S+) => not found$/.exec(line);
    if (missing) throw new PackagingError("LIBRARY_NOT_FOUND", `shared library ${missing[1]} is not on this machine`);
    const path = /^(?:\S+ => )?(\/\S+)(?: \(0x[0-9a-f]+\))?$/.exec(line);
    if (path && !paths.includes(path[1]!)) paths.push(path[1]!);
  }
  return paths;
}

/**
 * What another root file system needs so that `path` opens there as it does here: every symbolic
 * link met on the way (Debian's /lib -> usr/lib, the loader's link, libc.so.6's own) as a link,
 * and the file it ends at, with its mode. Archive paths are relative to the root.
 */
export function entriesReaching(path: string, root = "/"): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [];
  let pending = posix.normalize(path);
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    const parts = pending.split("/").filter(Boolean);
    let current = "/";
    let followed = false;
    for (let index = 0; index < parts.length; index++) {
      current = posix.join(current, parts[index]!);
      const status = lstatSync(posix.join(root, current));
      if (!status.isSymbolicLink()) continue;
      const target = readlinkSync(posix.join(root, current), "utf8");
      entries.push({ kind: "symlink", path: current.slice(1), target });
      const resolved = target.startsWith("/") ? target : posix.join(posix.dirname(current), target);
      pending = posix.normalize(posix.join(resolved, ...parts.slice(index + 1)));
      followed = true;
      break;
    }
    if (!followed) {
      const status = lstatSync(posix.join(root, current));
      entries.push({
        kind: "file",
        path: current.slice(1),
        mode: status.mode & 0o777,
        data: readFileSync(posix.join(root, current)),
      });
      return entries;
    }
  }
  throw new PackagingError("SYMLINK_LOOP", `more than ${MAX_LINKS} symbolic links on the way to ${path}`);
}

/** The kernel's own limit on links followed while resolving one path. */
const MAX_LINKS = 40;
