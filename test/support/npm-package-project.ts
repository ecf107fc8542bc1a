import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import packageJson from "../../package.json" with { type: "json" };
import { releaseBuild } from "./build-release.ts";
import { PROJECT_ROOT } from "./run-cli.ts";

/**
 * The npm package as an application gets it: `build.ts package` writes the tarball (the shared
 * build of this source tree, test/support/build-release.ts), and npm installs it from the file into
 * a fresh project, offline (it has no dependencies, so the registry has nothing to give). The
 * project's development dependencies, esbuild and Vite, are this repository's installed copies,
 * linked in. Installed once per test process, for every file that needs it; the project is removed
 * when the process ends.
 */
export interface InstalledPackage {
  /** The directory `build.ts package --out` wrote: `npm/<tarball>` and SHA256SUMS. Shared: read only. */
  readonly dist: string;
  readonly tarball: string;
  /** The application's directory, with node_modules/rule-server installed by npm. */
  readonly project: string;
}

let installed: InstalledPackage | undefined;

export function installedPackage(): InstalledPackage {
  if (installed) return installed;
  const dist = releaseBuild("package");
  const tarball = join(dist, "npm", `rule-server-${packageJson.version}.tgz`);
  const project = mkdtempSync(join(tmpdir(), "rule-server-consumer-"));
  process.on("exit", () => rmSync(project, { recursive: true, force: true }));
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "rule-server-consumer", private: true, type: "module" }, null, 2),
  );
  const npm = Bun.spawnSync(
    ["npm", "install", tarball, "--offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"],
    { cwd: project, stdout: "pipe", stderr: "pipe" },
  );
  if (npm.exitCode !== 0)
    throw new Error(`npm install of the tarball failed: ${npm.stdout.toString()}${npm.stderr.toString()}`);
  // Linked after npm ran: npm would remove packages its lock file does not list.
  mkdirSync(join(project, "node_modules"), { recursive: true });
  for (const tool of ["esbuild", "vite"])
    symlinkSync(join(PROJECT_ROOT, "node_modules", tool), join(project, "node_modules", tool), "dir");
  installed = { dist, tarball, project };
  return installed;
}
