import type { BunPlugin } from "bun";
import { join } from "node:path";
import { BrowserBundleError, browserModuleProblems } from "./browser-module-bundle.ts";

const ROOT = join(import.meta.dir, "..", "..");

/** The specifier the client imports the engine by, inside the npm package. */
export const ENGINE_SPECIFIER = "./engine.js";

/**
 * The client imports the engine module that ships beside it, never a copy of its own: a page that
 * loads both runs one engine, with one cache of fetched manifests.
 */
const engineBesideTheClient: BunPlugin = {
  name: "engine-beside-the-client",
  setup(build) {
    build.onResolve({ filter: /[\\/]browser[\\/]rule-cascade\.ts$/ }, () => ({
      path: ENGINE_SPECIFIER,
      external: true,
    }));
  },
};

/**
 * The code of the npm package's client.js (src/client/index.ts): one ES module, not minified (it is
 * small, and an application's own bundler minifies it), with nothing of Node or of the engine in it.
 */
export async function bundleClientModule(): Promise<string> {
  const result = await Bun.build({
    entrypoints: [join(ROOT, "src", "client", "index.ts")],
    target: "browser",
    format: "esm",
    plugins: [engineBesideTheClient],
  });
  if (!result.success) throw new BrowserBundleError(`client: ${result.logs.map(String).join("\n")}`);
  const code = await result.outputs[0]!.text();
  const problems = browserModuleProblems(code);
  // The engine's own strings: were they here, the client would carry a copy of the engine.
  if (/MANIFEST_INVALID|BUNDLE_UNSUPPORTED/.test(code)) problems.push("it holds the engine");
  if (problems.length > 0)
    throw new BrowserBundleError(`the client module is not self-contained: ${problems.join("; ")}`);
  return code;
}
