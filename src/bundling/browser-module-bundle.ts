import type { BunPlugin } from "bun";
import { join } from "node:path";
import { bundledPackages } from "./bundled-packages.ts";

const ROOT = join(import.meta.dir, "..", "..");

/**
 * The browser build runs the same engine with one module swapped: the pattern backend, RE2 on the
 * server, the page's own JavaScript engine here (src/engine/pattern/javascript-pattern-backend.ts
 * says why). Nothing else differs, and nothing of re2-wasm or Node reaches the page.
 */
const browserPatternBackend: BunPlugin = {
  name: "browser-pattern-backend",
  setup(build) {
    build.onResolve({ filter: /[\\/]re2-pattern-backend\.ts$/ }, () => ({
      path: join(ROOT, "src", "engine", "pattern", "javascript-pattern-backend.ts"),
    }));
  },
};

/** The browser module could not be built, or holds what a page must never load. */
export class BrowserBundleError extends Error {
  readonly code = "BROWSER_BUNDLE_FAILED" as const;
  override readonly name = "BrowserBundleError";
}

/** What the browser module must never hold: a Node built-in, CommonJS, re2-wasm, or a path of this machine. */
export function browserModuleProblems(code: string): string[] {
  const problems: string[] = [];
  if (/\bfrom\s*"node:|\brequire\(|__dirname|import\.meta\.dir\b/.test(code))
    problems.push("it refers to Node or CommonJS");
  if (/re2-wasm|\.wasm\b/.test(code)) problems.push("it holds re2-wasm");
  if (code.includes(ROOT)) problems.push(`it holds the build machine's path ${ROOT}`);
  return problems;
}

/** One entry point bundled for pages: a single minified ES module, or BrowserBundleError naming what failed. */
export async function bundleForPages(name: string, entrypoint: string, plugin: BunPlugin): Promise<string> {
  return (await pageBundle(name, entrypoint, plugin)).code;
}

/** A page bundle's code and the files it was made of (the bundler's inputs, relative to the working directory). */
async function pageBundle(
  name: string,
  entrypoint: string,
  plugin: BunPlugin,
): Promise<{ code: string; inputs: string[] }> {
  const result = await Bun.build({
    entrypoints: [entrypoint],
    target: "browser",
    format: "esm",
    minify: true,
    plugins: [plugin],
    define: { "process.env.NODE_ENV": '"production"' },
    metafile: true,
  });
  if (!result.success) throw new BrowserBundleError(`${name}: ${result.logs.map(String).join("\n")}`);
  return { code: await result.outputs[0]!.text(), inputs: Object.keys(result.metafile?.inputs ?? {}) };
}

/** The code of rule-cascade.js, the engine as one self-contained ES module (src/browser/rule-cascade.ts). */
export async function bundleBrowserModule(): Promise<string> {
  return (await browserModule()).code;
}

/**
 * The npm packages the browser module holds (decimal.js), as directories: their licenses ask that
 * their notices travel with the code, in the npm package as in the .vsix.
 */
export async function browserModulePackages(): Promise<string[]> {
  return (await browserModule()).packages;
}

/** One process bundles it once: build.ts needs it for dist/browser, inside the explorer and in the npm package. */
function browserModule(): Promise<{ code: string; packages: string[] }> {
  return (bundled ??= bundleSelfContained());
}

let bundled: Promise<{ code: string; packages: string[] }> | undefined;

async function bundleSelfContained(): Promise<{ code: string; packages: string[] }> {
  const bundle = await pageBundle("browser", join(ROOT, "src", "browser", "rule-cascade.ts"), browserPatternBackend);
  const problems = browserModuleProblems(bundle.code);
  if (problems.length > 0)
    throw new BrowserBundleError(`the browser module is not self-contained: ${problems.join("; ")}`);
  return { code: bundle.code, packages: bundledPackages(bundle.inputs, process.cwd()) };
}
