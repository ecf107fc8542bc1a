/**
 * `make vsix`, and the .vsix that `make build` ships beside the release archives: the extension's
 * client bundled by Bun into one CommonJS file (VS Code loads extensions with `require`, and
 * provides `vscode` itself), then packed by @vscode/vsce into `rule-server-<version>.vsix`.
 * Usage: `bun editors/vscode/package-vsix.ts [--out dir]` (default: dist/).
 *
 * Offline and without questions: everything is packed from a fresh staging directory holding only
 * what ships (the manifest, README, LICENSE, the bundle and its ThirdPartyNotices.txt), so vsce has no dependencies to list
 * (`--no-dependencies`) and no .vscodeignore is needed; there is no public repository to name
 * (`--allow-missing-repository`). With the same sources and SOURCE_DATE_EPOCH (which vsce honours)
 * it gives the same bytes.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { buildProvenance } from "../../src/packaging/build-provenance.ts";
import { bundledPackages } from "../../src/bundling/bundled-packages.ts";
import { thirdPartyNotices } from "../../src/packaging/third-party-notices.ts";

const EXTENSION_ROOT = import.meta.dir;
const PROJECT_ROOT = join(EXTENSION_ROOT, "..", "..");

export interface VsixOptions {
  /** The directory the .vsix is written to. */
  readonly out: string;
  /** Seconds since the epoch, the time of every entry; when not given, as for the release archives (SOURCE_DATE_EPOCH, else the last commit's time). */
  readonly sourceDate?: number;
}

interface ExtensionManifest {
  readonly name: string;
  readonly version: string;
  readonly main: string;
}

export function vsixName(version: string): string {
  return `rule-server-${version}.vsix`;
}

export async function packageVsix(options: VsixOptions): Promise<string> {
  const manifest = JSON.parse(readFileSync(join(EXTENSION_ROOT, "package.json"), "utf8")) as ExtensionManifest;
  const projectVersion = (JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { version: string })
    .version;
  // One version for the server and the extension that starts it; a bump of one alone is a mistake.
  if (manifest.version !== projectVersion) {
    throw new Error(
      `editors/vscode/package.json has version ${manifest.version}, package.json ${projectVersion}: give them the same version`,
    );
  }
  const staging = mkdtempSync(join(tmpdir(), "rule-server-vsix-"));
  try {
    const packages = await bundleClient(join(staging, manifest.main));
    writeFileSync(
      join(staging, "ThirdPartyNotices.txt"),
      thirdPartyNotices(packages, "the extension's client (dist/extension.js)"),
    );
    copyFileSync(join(EXTENSION_ROOT, "package.json"), join(staging, "package.json"));
    copyFileSync(join(EXTENSION_ROOT, "README.md"), join(staging, "README.md"));
    // The full license text ships in the .vsix; editors/vscode/LICENSE only points at it.
    copyFileSync(join(PROJECT_ROOT, "LICENSE"), join(staging, "LICENSE"));
    // vsce keeps each file's mode: fixed here, whatever the umask.
    for (const file of ["package.json", "README.md", "LICENSE", "ThirdPartyNotices.txt", manifest.main])
      chmodSync(join(staging, file), 0o644);
    mkdirSync(options.out, { recursive: true });
    const file = join(resolve(options.out), vsixName(manifest.version));
    const vsce = Bun.spawnSync(
      [
        join(PROJECT_ROOT, "node_modules", ".bin", "vsce"),
        "package",
        "--no-dependencies",
        "--allow-missing-repository",
        "--out",
        file,
      ],
      {
        cwd: staging,
        // No terminal to answer from: a question vsce asks fails the build instead of waiting.
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
        env: {
          ...process.env,
          SOURCE_DATE_EPOCH: String(options.sourceDate ?? buildProvenance(PROJECT_ROOT).sourceDate),
        },
      },
    );
    if (vsce.exitCode !== 0)
      throw new Error(
        `vsce package failed (exit ${vsce.exitCode}):\n${vsce.stdout.toString()}${vsce.stderr.toString()}`,
      );
    // vsce warns on standard error without failing: a warning is a packaging mistake here.
    if (/WARNING/.test(vsce.stderr.toString())) throw new Error(`vsce package warned:\n${vsce.stderr.toString()}`);
    return file;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * src/extension.ts and what it imports (the language client) in one file; `vscode` and Node's
 * modules stay `require`s. Returns the directories of the npm packages bundled.
 */
async function bundleClient(outfile: string): Promise<string[]> {
  const result = await Bun.build({
    entrypoints: [join(EXTENSION_ROOT, "src", "extension.ts")],
    target: "node",
    format: "cjs",
    external: ["vscode"],
    // Whitespace and syntax only: names stay readable in the stack traces VS Code reports.
    minify: { whitespace: true, syntax: true, identifiers: false },
    sourcemap: "none",
    outdir: dirname(outfile),
    naming: "[name].js",
    metafile: true,
  });
  if (!result.success) throw new Error(`bundling the extension: ${result.logs.map(String).join("\n")}`);
  const written = result.outputs.map((output) => output.path);
  if (written.length !== 1 || written[0] !== outfile)
    throw new Error(`the bundle was written to ${written.join(", ")}, not to ${outfile} (the manifest's main)`);
  return bundledPackages(Object.keys(result.metafile?.inputs ?? {}), process.cwd());
}

function outDirectory(args: readonly string[]): string {
  const at = args.indexOf("--out");
  if (at === -1) return join(PROJECT_ROOT, "dist");
  if (args[at + 1] === undefined) throw new Error("--out needs a directory");
  return resolve(args[at + 1]!);
}

if (import.meta.main) console.log(`wrote ${await packageVsix({ out: outDirectory(process.argv.slice(2)) })}`);
