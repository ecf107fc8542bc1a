/**
 * `make build`: one executable per platform in dist/, `rule-server-<os>-<arch>[.exe]`, its release
 * archive `rule-server-<os>-<arch>.tar.gz` (`.zip` for Windows) and dist/SHA256SUMS over both. Each
 * executable holds everything: the Bun runtime, the code, the worker entry point and RE2's
 * WebAssembly. Also the browser module, dist/browser/rule-cascade.js with its declarations.
 * `make image`: the container image dist/rule-server-<version>-linux-x64.oci.tar (src/packaging/).
 * The VS Code extension, dist/rule-server-<version>.vsix (editors/vscode/), and the npm package,
 * dist/npm/rule-server-<version>.tgz (src/packaging/npm-package/), ship beside the archives and
 * are in SHA256SUMS too. A run that builds some of them replaces or adds their lines in
 * SHA256SUMS and keeps the others (src/packaging/checksums-file.ts).
 * Usage: `bun build.ts [target...|browser|image|vsix|package] [--out dir]` (default: every target,
 * the browser module, the extension and the npm package, into dist/). Archives, image, extension
 * and package are reproducible: see src/packaging/build-provenance.ts.
 */
import type { BunPlugin } from "bun";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import packageJson from "./package.json" with { type: "json" };
import { buildProvenance, type BuildProvenance } from "./src/packaging/build-provenance.ts";
import { writeChecksums } from "./src/packaging/checksums-file.ts";
import { ociArchive } from "./src/packaging/oci-image-writer.ts";
import { releaseArchive } from "./src/packaging/release-archive.ts";
import { checkExampleRules } from "./src/packaging/example-rules-check.ts";
import { ruleServerImage } from "./src/packaging/rule-server-image.ts";
import { bundleBrowserModule } from "./src/bundling/browser-module-bundle.ts";
import { checkoutIndependentPaths, withCheckoutIndependentPaths } from "./src/bundling/checkout-independent-paths.ts";
import { bundleExplorer, type ExplorerFiles } from "./src/bundling/explorer-bundle.ts";
import { moduleDeclarations } from "./src/bundling/module-declarations.ts";
import { prebuiltCheckers } from "./src/bundling/prebuilt-checkers.ts";
import { packageVsix } from "./editors/vscode/package-vsix.ts";
import { writeNpmPackage } from "./src/packaging/npm-package/npm-package.ts";

const TARGETS = {
  "linux-x64": "bun-linux-x64",
  "linux-x64-musl": "bun-linux-x64-musl",
  "linux-arm64": "bun-linux-arm64",
  "darwin-x64": "bun-darwin-x64",
  "darwin-arm64": "bun-darwin-arm64",
  "windows-x64": "bun-windows-x64",
} as const;
export type Target = keyof typeof TARGETS;

const ROOT = import.meta.dir;
const DIST = join(ROOT, "dist");

/**
 * re2-wasm finds its .wasm next to its own JavaScript at run time, which in an executable would
 * mean the build machine's node_modules. This makes it load the copy embedded in the executable.
 */
const embedRe2Wasm: BunPlugin = {
  name: "embed-re2-wasm",
  setup(build) {
    build.onLoad({ filter: /re2-wasm[\\/]build[\\/]wasm[\\/]re2\.js$/ }, async (args) => {
      const source = withCheckoutIndependentPaths(await Bun.file(args.path).text(), args.path, ROOT);
      const patched = source.replace(
        "wasmBinaryFile = locateFile(wasmBinaryFile);",
        'wasmBinaryFile = require("./re2.wasm");',
      );
      if (patched === source)
        throw new Error("re2-wasm's loader is not what the build expects; update embedRe2Wasm in build.ts");
      return { contents: patched, loader: "js" };
    });
  },
};

/**
 * Run from source, the server bundles the explorer page on its first request
 * (src/server/routes/explorer-files.ts); the executable holds the page already bundled, by the
 * same function, in place of that module. The build fails if the module was not found.
 */
function embedExplorer(files: ExplorerFiles): BunPlugin & { embedded: () => boolean } {
  let embedded = false;
  return {
    name: "embed-explorer",
    embedded: () => embedded,
    setup(build) {
      build.onLoad({ filter: /[\\/]server[\\/]routes[\\/]explorer-files\.ts$/ }, () => {
        embedded = true;
        return {
          contents: `const files = ${JSON.stringify(files)};\nexport function explorerFiles() { return Promise.resolve(files); }\n`,
          loader: "js",
        };
      });
    },
  };
}

export function executableName(target: Target): string {
  return `rule-server-${target}${target.startsWith("windows") ? ".exe" : ""}`;
}

function archiveName(target: Target): string {
  return `rule-server-${target}${target.startsWith("windows") ? ".zip" : ".tar.gz"}`;
}

function imageName(): string {
  return `rule-server-${packageJson.version}-linux-x64.oci.tar`;
}

/** The explorer page, bundled once per build for every executable. */
let explorerFiles: Promise<ExplorerFiles> | undefined;

async function buildTarget(target: Target, dist: string): Promise<string> {
  const outfile = join(dist, executableName(target));
  const embedExplorerFiles = embedExplorer(await (explorerFiles ??= bundleExplorer()));
  const checkers = prebuiltCheckers();
  const result = await Bun.build({
    // The worker is an entry point of its own, so that the executable can start it.
    entrypoints: [join(ROOT, "src", "main.ts"), join(ROOT, "src", "server", "workers", "evaluation-worker.ts")],
    compile: { target: TARGETS[target], outfile },
    plugins: [embedRe2Wasm, embedExplorerFiles, checkers, checkoutIndependentPaths(ROOT)],
    minify: true,
    sourcemap: "none",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!result.success) throw new Error(`${target}: ${result.logs.map(String).join("\n")}`);
  if (!embedExplorerFiles.embedded())
    throw new Error("src/server/routes/explorer-files.ts was not bundled; update embedExplorer in build.ts");
  if (!checkers.embedded())
    throw new Error("src/compiler/schema/checked-schemas.ts was not bundled; update src/bundling/prebuilt-checkers.ts");
  return outfile;
}

export async function buildBrowserModule(dist = DIST): Promise<{ file: string; bytes: number; gzipBytes: number }> {
  const browserDist = join(dist, "browser");
  mkdirSync(browserDist, { recursive: true });
  const code = await bundleBrowserModule();
  const file = join(browserDist, "rule-cascade.js");
  writeFileSync(file, code);
  writeFileSync(join(browserDist, "rule-cascade.d.ts"), browserDeclarations());
  return { file, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code, { level: 9 }).length };
}

function browserDeclarations(): string {
  return moduleDeclarations(join(ROOT, "src", "browser", "rule-cascade.ts"), {
    title: `Type declarations of rule-cascade.js (rule-server ${packageJson.version}).`,
  });
}

/** Everything a user of this target downloads, in one directory named for the version and target. */
function writeArchive(target: Target, executable: string, dist: string, provenance: BuildProvenance): string {
  const file = join(dist, archiveName(target));
  const windows = target.startsWith("windows");
  writeFileSync(
    file,
    releaseArchive({
      root: ROOT,
      executable,
      executableName: windows ? "rule-server.exe" : "rule-server",
      directory: `rule-server-${packageJson.version}-${target}`,
      format: windows ? "zip" : "tar.gz",
      sourceDate: provenance.sourceDate,
      buildInfo: {
        version: packageJson.version,
        revision: provenance.revision,
        sourceDate: provenance.sourceDate,
        ...(provenance.uncommitted.length > 0 ? { uncommitted: provenance.uncommitted } : {}),
      },
    }),
  );
  return file;
}

/** The image needs the linux-x64 executable; it is built here unless this run already did. */
async function writeImage(
  dist: string,
  provenance: BuildProvenance,
  built: ReadonlyMap<Target, string>,
): Promise<string> {
  const executable = built.get("linux-x64") ?? (await buildTarget("linux-x64", dist));
  const file = join(dist, imageName());
  const image = ruleServerImage({
    executable,
    version: packageJson.version,
    description: packageJson.description,
    license: packageJson.license,
    ...provenance,
  });
  writeFileSync(file, ociArchive(image));
  return file;
}

export interface BuildRequest {
  readonly browser: boolean;
  readonly targets: readonly Target[];
  readonly image: boolean;
  readonly vsix: boolean;
  /** The npm package, dist/npm/rule-server-<version>.tgz (`make package`). */
  readonly npmPackage: boolean;
  readonly dist: string;
}

export function buildRequest(args: readonly string[]): BuildRequest {
  const out = args.indexOf("--out");
  if (out !== -1 && args[out + 1] === undefined) throw new Error("--out needs a directory");
  const dist = out === -1 ? DIST : resolve(args[out + 1]!);
  const names = out === -1 ? [...args] : [...args.slice(0, out), ...args.slice(out + 2)];
  const artifacts = ["browser", "image", "vsix", "package"];
  for (const name of names)
    if (!artifacts.includes(name) && !(name in TARGETS))
      throw new Error(`unknown target ${name}; known: ${Object.keys(TARGETS).join(", ")}, ${artifacts.join(", ")}`);
  if (names.length === 0)
    return {
      browser: true,
      targets: Object.keys(TARGETS) as Target[],
      image: false,
      vsix: true,
      npmPackage: true,
      dist,
    };
  return {
    browser: names.includes("browser"),
    targets: names.filter((name) => name in TARGETS) as Target[],
    image: names.includes("image"),
    vsix: names.includes("vsix"),
    npmPackage: names.includes("package"),
    dist,
  };
}

async function main(args: readonly string[]): Promise<void> {
  const request = buildRequest(args);
  if (request.browser) {
    const browser = await buildBrowserModule(request.dist);
    console.log(
      `built ${browser.file}: ${(browser.bytes / 1024).toFixed(1)} KiB, ${(browser.gzipBytes / 1024).toFixed(1)} KiB gzip`,
    );
  }
  if (request.targets.length === 0 && !request.image && !request.vsix && !request.npmPackage) return;
  mkdirSync(request.dist, { recursive: true });
  const provenance = buildProvenance(ROOT);
  if (provenance.uncommitted.length > 0) {
    const listed =
      provenance.uncommitted.slice(0, 10).join(", ") +
      (provenance.uncommitted.length > 10 ? `, and ${provenance.uncommitted.length - 10} more` : "");
    console.warn(
      `warning: the working tree has uncommitted changes (${listed}): this build is not the commit it names; its revision is ${provenance.revision}, in BUILD-INFO.json and the image's labels`,
    );
  }
  if (request.targets.length > 0) checkExampleRules(ROOT);
  const built = new Map<Target, string>();
  /** The files of this run that SHA256SUMS vouches for. */
  const summed: string[] = [];
  for (const target of request.targets) {
    const file = await buildTarget(target, request.dist);
    built.set(target, file);
    console.log(`built ${file} (rule-server ${packageJson.version})`);
    const archive = writeArchive(target, file, request.dist, provenance);
    console.log(`wrote ${archive}`);
    summed.push(file, archive);
  }
  if (request.vsix) {
    const vsix = await packageVsix({ out: request.dist, sourceDate: provenance.sourceDate });
    console.log(`wrote ${vsix}`);
    summed.push(vsix);
  }
  if (request.npmPackage) {
    const tarball = await writeNpmPackage(request.dist);
    console.log(`wrote ${tarball}`);
    summed.push(tarball);
  }
  // Only this run's lines change: `make package` after `make build` keeps the archives' lines.
  if (summed.length > 0) console.log(`wrote ${writeChecksums(request.dist, summed)}`);
  if (request.image) console.log(`wrote ${await writeImage(request.dist, provenance, built)}`);
}

if (import.meta.main) await main(process.argv.slice(2));
