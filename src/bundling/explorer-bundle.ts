import type { BunPlugin } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bundleBrowserModule, bundleForPages } from "./browser-module-bundle.ts";

const EXPLORER_SOURCE = join(import.meta.dir, "..", "explorer");

/** One file of the explorer page as the server sends it. */
export interface ExplorerFile {
  readonly contentType: string;
  readonly text: string;
}

/** The explorer's files by name: index.html, explorer.js, explorer.css, favicon.svg and rule-cascade.js. */
export type ExplorerFiles = Readonly<Record<string, ExplorerFile>>;

/**
 * The page imports the engine from the browser module served beside it, not from a copy bundled
 * into its own script: the page runs exactly the module that pages of our users load.
 */
const browserModuleBesideThePage: BunPlugin = {
  name: "browser-module-beside-the-page",
  setup(build) {
    build.onResolve({ filter: /[\\/]browser[\\/]rule-cascade\.ts$/ }, () => ({
      path: "./rule-cascade.js",
      external: true,
    }));
  },
};

/**
 * Builds the explorer page: the same function for the executable (build.ts embeds its result) and
 * for a server run from source (which calls it on the first request of the page).
 */
export async function bundleExplorer(): Promise<ExplorerFiles> {
  const [script, engine] = await Promise.all([
    bundleForPages("explorer", join(EXPLORER_SOURCE, "explorer-page.ts"), browserModuleBesideThePage),
    bundleBrowserModule(),
  ]);
  return {
    "index.html": {
      contentType: "text/html; charset=utf-8",
      text: readFileSync(join(EXPLORER_SOURCE, "index.html"), "utf8"),
    },
    "explorer.css": {
      contentType: "text/css; charset=utf-8",
      text: readFileSync(join(EXPLORER_SOURCE, "explorer.css"), "utf8"),
    },
    "favicon.svg": { contentType: "image/svg+xml", text: readFileSync(join(EXPLORER_SOURCE, "favicon.svg"), "utf8") },
    "explorer.js": { contentType: "text/javascript; charset=utf-8", text: script },
    "rule-cascade.js": { contentType: "text/javascript; charset=utf-8", text: engine },
  };
}
