import { resolve } from "node:path";

/**
 * The directory of each npm package among a bundler's inputs (its metafile, paths relative to
 * `cwd`), once each: what a bundle holds of other packages, whose notices ship with it.
 */
export function bundledPackages(inputs: readonly string[], cwd: string): string[] {
  const directories = new Set<string>();
  for (const input of inputs) {
    const path = resolve(cwd, input).replaceAll("\\", "/");
    const match = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (match) directories.add(match[1]!);
  }
  return [...directories].sort();
}
