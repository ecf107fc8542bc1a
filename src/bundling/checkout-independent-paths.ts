import type { BunPlugin } from "bun";
import { readFileSync } from "node:fs";
import { relative, sep } from "node:path";

/**
 * Bun writes a bundled CommonJS module's `__dirname` and `__filename` as the absolute paths they
 * had on the build machine (re2-wasm and vscode-languageserver use them), so the executable's
 * bytes depended on where the sources were checked out: two clones of one commit built different
 * executables, and a reproducible build cannot. Both become the path from the project's root,
 * the same in every checkout; nothing bundled reads them at run time (RE2's WebAssembly is
 * embedded, and the language server resolves no modules from disk).
 */
export function withCheckoutIndependentPaths(source: string, file: string, root: string): string {
  const path = relative(root, file).split(sep).join("/");
  const directory = path.slice(0, Math.max(0, path.lastIndexOf("/")));
  return source.replace(/\b__dirname\b/g, JSON.stringify(directory)).replace(/\b__filename\b/g, JSON.stringify(path));
}

/** Rewrites every installed package's module that names `__dirname` or `__filename` (withCheckoutIndependentPaths). */
export function checkoutIndependentPaths(root: string): BunPlugin {
  return {
    name: "checkout-independent-paths",
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/].*\.c?js$/ }, (args) => {
        const source = readFileSync(args.path, "utf8");
        if (!/\b__(dirname|filename)\b/.test(source)) return undefined;
        return { contents: withCheckoutIndependentPaths(source, args.path, root), loader: "js" };
      });
    },
  };
}
