/**
 * Administration tools (mount, chroot, runc, ...) live in sbin directories, which an ordinary
 * user's PATH, or a minimal one such as /usr/local/bin:/usr/bin:/bin, often leaves out: the tests
 * look there too rather than fail with a tool that is installed.
 */
export const SYSTEM_DIRECTORIES: readonly string[] = ["/usr/local/sbin", "/usr/sbin", "/sbin"];

/** The directories of PATH, then the system directories PATH lacks. */
export function systemPath(path: string = process.env.PATH ?? ""): string {
  const directories = path.split(":").filter(Boolean);
  return [...directories, ...SYSTEM_DIRECTORIES.filter((directory) => !directories.includes(directory))].join(":");
}

/** The absolute path of an executable named `name` in PATH or the system directories; null where none holds one. */
export function systemTool(name: string, path: string = process.env.PATH ?? ""): string | null {
  return Bun.which(name, { PATH: systemPath(path) });
}

/** The Debian package of each tool the tests run from the system. */
const PACKAGES: Readonly<Record<string, string>> = {
  unshare: "util-linux",
  chroot: "coreutils",
  env: "coreutils",
  rm: "coreutils",
  tar: "tar",
  find: "findutils",
  newuidmap: "uidmap",
  newgidmap: "uidmap",
  podman: "podman",
  runc: "runc",
};
/** Installed by `make podman` when missing. */
const MAKE_PODMAN = ["podman", "runc", "newuidmap", "newgidmap"];

/** The sentence saying that a tool is missing, where it was looked for and which package provides it. */
export function missingTool(name: string): string {
  const packageName = PACKAGES[name] ?? name;
  const make = MAKE_PODMAN.includes(name) ? " or `make podman`" : "";
  return `${name} was not found in PATH nor in ${SYSTEM_DIRECTORIES.join(", ")}: install Debian's ${packageName} package (\`sudo apt-get install ${packageName}\`${make})`;
}

/** The absolute path of a tool; throws saying how to install it when it is missing. */
export function requireTool(name: string): string {
  const path = systemTool(name);
  if (!path) throw new Error(missingTool(name));
  return path;
}
