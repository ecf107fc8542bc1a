import { bundleExplorer, type ExplorerFiles } from "../../bundling/explorer-bundle.ts";

let files: Promise<ExplorerFiles> | undefined;

/**
 * The explorer page's files. Run from source, the page is bundled on its first request (so neither
 * start-up nor the tests of other endpoints pay for it, and no build step comes first); the
 * executable's build replaces this module with one that holds the files already bundled (build.ts).
 */
export function explorerFiles(): Promise<ExplorerFiles> {
  return (files ??= bundleExplorer());
}
