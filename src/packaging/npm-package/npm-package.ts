import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { browserModulePackages, bundleBrowserModule } from "../../bundling/browser-module-bundle.ts";
import { bundleClientModule, ENGINE_SPECIFIER } from "../../bundling/client-module-bundle.ts";
import { moduleDeclarations } from "../../bundling/module-declarations.ts";
import { PackagingError } from "../packaging-error.ts";
import { npmPackageFileName, npmPackageManifest, PACKAGE_FILES } from "./package-manifest.ts";
import { thirdPartyNotices } from "../third-party-notices.ts";

const ROOT = join(import.meta.dir, "..", "..", "..");

/**
 * `make package`: the npm package as `<out>/npm/rule-server-<version>.tgz`, what `npm pack` makes
 * of a staging directory holding only what ships. npm gives every entry the same fixed time and
 * mode, so the same sources give the same bytes. Returns the tarball's path.
 */
export async function writeNpmPackage(out: string): Promise<string> {
  const project = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string; license: string };
  const staging = mkdtempSync(join(tmpdir(), "rule-server-npm-"));
  try {
    const [engine, client, packages] = await Promise.all([
      bundleBrowserModule(),
      bundleClientModule(),
      browserModulePackages(),
    ]);
    writeFileSync(join(staging, "engine.js"), engine);
    writeFileSync(join(staging, "client.js"), client);
    writeFileSync(
      join(staging, "engine.d.ts"),
      moduleDeclarations(join(ROOT, "src", "browser", "rule-cascade.ts"), {
        title: `Types of rule-server/engine (rule-server ${project.version}).`,
      }),
    );
    writeFileSync(
      join(staging, "client.d.ts"),
      moduleDeclarations(join(ROOT, "src", "client", "index.ts"), {
        title: `Types of rule-server/client (rule-server ${project.version}).`,
        externals: { [join(ROOT, "src", "browser", "rule-cascade.ts")]: ENGINE_SPECIFIER },
      }),
    );
    writeFileSync(join(staging, "package.json"), `${JSON.stringify(npmPackageManifest(project), null, 2)}\n`);
    copyFileSync(join(import.meta.dir, "README.md"), join(staging, "README.md"));
    copyFileSync(join(ROOT, "LICENSE"), join(staging, "LICENSE"));
    writeFileSync(join(staging, "ThirdPartyNotices.txt"), thirdPartyNotices(packages, "engine.js"));
    for (const file of [...PACKAGE_FILES, "package.json"]) chmodSync(join(staging, file), 0o644);
    const destination = join(resolve(out), "npm");
    mkdirSync(destination, { recursive: true });
    // No scripts to run and nothing to fetch: npm only packs what is staged.
    const pack = spawnSync(
      "npm",
      ["pack", "--ignore-scripts", "--offline", "--json", "--pack-destination", destination],
      { cwd: staging, encoding: "utf8" },
    );
    if (pack.status !== 0)
      throw new PackagingError(
        "NPM_PACK_FAILED",
        `npm pack failed (exit ${pack.status}): ${pack.stdout}${pack.stderr}${pack.error?.message ?? ""}`,
      );
    const [packed] = JSON.parse(pack.stdout) as { filename: string }[];
    const file = join(destination, npmPackageFileName(project.version));
    if (packed?.filename !== npmPackageFileName(project.version))
      throw new PackagingError(
        "NPM_PACK_FAILED",
        `npm pack wrote ${packed?.filename}, not ${npmPackageFileName(project.version)}`,
      );
    return file;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
