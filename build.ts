/**
 * `make build`: one executable per platform in dist/, `rule-server-<os>-<arch>[.exe]`, and
 * dist/SHA256SUMS. Each executable holds everything: the Bun runtime, the code, the worker entry
 * point and RE2's WebAssembly. Also the browser module, dist/browser/rule-cascade.js with its
 * declarations. Usage: `bun build.ts [target...|browser]` (default: every target and the browser).
 */
import type { BunPlugin } from "bun";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import packageJson from "./package.json" with { type: "json" };
import { bundleBrowserModule } from "./src/bundling/browser-module-bundle.ts";
import { bundleExplorer, type ExplorerFiles } from "./src/bundling/explorer-bundle.ts";

const TARGETS = {
  "linux-x64": "bun-linux-x64",
  "linux-x64-musl": "bun-linux-x64-musl",
  "linux-arm64": "bun-linux-arm64",
  "darwin-x64": "bun-darwin-x64",
  "darwin-arm64": "bun-darwin-arm64",
  "windows-x64": "bun-windows-x64",
} as const;
type Target = keyof typeof TARGETS;

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
      const source = await Bun.file(args.path).text();
      const patched = source.replace("wasmBinaryFile = locateFile(wasmBinaryFile);", 'wasmBinaryFile = require("./re2.wasm");');
      if (patched === source) throw new Error("re2-wasm's loader is not what the build expects; update embedRe2Wasm in build.ts");
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
        return { contents: `const files = ${JSON.stringify(files)};\nexport function explorerFiles() { return Promise.resolve(files); }\n`, loader: "js" };
      });
    },
  };
}

export function executableName(target: Target): string {
  return `rule-server-${target}${target.startsWith("windows") ? ".exe" : ""}`;
}

async function buildTarget(target: Target, explorer: ExplorerFiles): Promise<string> {
  const outfile = join(DIST, executableName(target));
  const embedExplorerFiles = embedExplorer(explorer);
  const result = await Bun.build({
    // The worker is an entry point of its own, so that the executable can start it.
    entrypoints: [join(ROOT, "src", "main.ts"), join(ROOT, "src", "server", "workers", "evaluation-worker.ts")],
    compile: { target: TARGETS[target], outfile },
    plugins: [embedRe2Wasm, embedExplorerFiles],
    minify: true,
    sourcemap: "none",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!result.success) throw new Error(`${target}: ${result.logs.map(String).join("\n")}`);
  if (!embedExplorerFiles.embedded()) throw new Error("src/server/routes/explorer-files.ts was not bundled; update embedExplorer in build.ts");
  return outfile;
}

const BROWSER_DIST = join(DIST, "browser");

export async function buildBrowserModule(): Promise<{ file: string; bytes: number; gzipBytes: number }> {
  mkdirSync(BROWSER_DIST, { recursive: true });
  const code = await bundleBrowserModule();
  const file = join(BROWSER_DIST, "rule-cascade.js");
  writeFileSync(file, code);
  writeFileSync(join(BROWSER_DIST, "rule-cascade.d.ts"), browserDeclarations());
  return { file, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code, { level: 9 }).length };
}

/**
 * One declaration file for the module: TypeScript's declarations of the entry and of the files its
 * declarations reach, inlined into one module. Only the entry's exports are exported.
 */
function browserDeclarations(): string {
  const out = mkdtempSync(join(tmpdir(), "rule-cascade-types-"));
  try {
    const tsc = Bun.spawnSync([join(ROOT, "node_modules", ".bin", "tsc"), "--ignoreConfig", "--declaration", "--emitDeclarationOnly", "--outDir", out, "--rootDir", ROOT,
      "--allowImportingTsExtensions", "--rewriteRelativeImportExtensions", "--module", "preserve", "--moduleResolution", "bundler", "--target", "es2022",
      "--lib", "es2023,dom", "--strict", "--skipLibCheck", "--types", "", join(ROOT, "src", "browser", "rule-cascade.ts")], { cwd: ROOT });
    if (tsc.exitCode !== 0) throw new Error(`declarations of the browser module: ${tsc.stdout.toString()}${tsc.stderr.toString()}`);
    const entry = join(out, "src", "browser", "rule-cascade.d.ts");
    const IMPORT = /^(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)";\n/gm;
    const seen = new Set<string>([entry]);
    const pending = [entry];
    const inner: string[] = [];
    let exported = "";
    while (pending.length > 0) {
      const file = pending.shift()!;
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(IMPORT)) {
        const target = join(dirname(file), match[1]!.replace(/\.(ts|js)$/, ".d.ts"));
        if (!seen.has(target)) {
          seen.add(target);
          pending.push(target);
        }
      }
      if (file === entry) {
        exported = text.replace(/^(export\b[^;]*?)\s+from\s+"[^"]+";$/gm, "$1;").replace(/^import\b[^;]*;\n/gm, "");
        continue;
      }
      inner.push(`// ${relative(out, file).replace(/\.d\.ts$/, ".ts")}\n` + text.replace(IMPORT, "").replace(/^export \{\};?\n/gm, "").replace(/^export (declare |interface |type (?!\{))/gm, "$1").replace(/^export (declare )?/gm, "$1"));
    }
    return `/** Type declarations of rule-cascade.js (rule-server ${packageJson.version}). */\n${inner.join("\n")}\n${exported}`;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function main(requested: readonly string[]): Promise<void> {
  if (requested.length === 0 || requested.includes("browser")) {
    const browser = await buildBrowserModule();
    console.log(`built ${browser.file}: ${(browser.bytes / 1024).toFixed(1)} KiB, ${(browser.gzipBytes / 1024).toFixed(1)} KiB gzip`);
    if (requested.length === 1) return;
  }
  const targets = (requested.length > 0 ? requested.filter((name) => name !== "browser") : Object.keys(TARGETS)) as Target[];
  for (const target of targets) if (!(target in TARGETS)) throw new Error(`unknown target ${target}; known: ${Object.keys(TARGETS).join(", ")}`);
  mkdirSync(DIST, { recursive: true });
  const explorer = await bundleExplorer();
  const sums: string[] = [];
  for (const target of targets) {
    const file = await buildTarget(target, explorer);
    const digest = createHash("sha256").update(readFileSync(file)).digest("hex");
    sums.push(`${digest}  ${executableName(target)}`);
    console.log(`built ${file} (rule-server ${packageJson.version})`);
  }
  writeFileSync(join(DIST, "SHA256SUMS"), sums.join("\n") + "\n");
  console.log(`wrote ${join(DIST, "SHA256SUMS")}`);
}

if (import.meta.main) await main(process.argv.slice(2));
