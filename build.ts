/**
 * `make build`: one executable per platform in dist/, `rule-server-<os>-<arch>[.exe]`, and
 * dist/SHA256SUMS. Each executable holds everything: the Bun runtime, the code, the worker entry
 * point and RE2's WebAssembly. Usage: `bun build.ts [target...]` (default: every target).
 */
import type { BunPlugin } from "bun";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import packageJson from "./package.json" with { type: "json" };

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

export function executableName(target: Target): string {
  return `rule-server-${target}${target.startsWith("windows") ? ".exe" : ""}`;
}

async function buildTarget(target: Target): Promise<string> {
  const outfile = join(DIST, executableName(target));
  const result = await Bun.build({
    // The worker is an entry point of its own, so that the executable can start it.
    entrypoints: [join(ROOT, "src", "main.ts"), join(ROOT, "src", "server", "workers", "evaluation-worker.ts")],
    compile: { target: TARGETS[target], outfile },
    plugins: [embedRe2Wasm],
    minify: true,
    sourcemap: "none",
    define: { "process.env.NODE_ENV": '"production"' },
  });
  if (!result.success) throw new Error(`${target}: ${result.logs.map(String).join("\n")}`);
  return outfile;
}

async function main(requested: readonly string[]): Promise<void> {
  const targets = (requested.length > 0 ? requested : Object.keys(TARGETS)) as Target[];
  for (const target of targets) if (!(target in TARGETS)) throw new Error(`unknown target ${target}; known: ${Object.keys(TARGETS).join(", ")}`);
  mkdirSync(DIST, { recursive: true });
  const sums: string[] = [];
  for (const target of targets) {
    const file = await buildTarget(target);
    const digest = createHash("sha256").update(readFileSync(file)).digest("hex");
    sums.push(`${digest}  ${executableName(target)}`);
    console.log(`built ${file} (rule-server ${packageJson.version})`);
  }
  writeFileSync(join(DIST, "SHA256SUMS"), sums.join("\n") + "\n");
  console.log(`wrote ${join(DIST, "SHA256SUMS")}`);
}

if (import.meta.main) await main(process.argv.slice(2));
