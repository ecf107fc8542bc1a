import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BunPlugin } from "bun";
import { checkoutIndependentPaths } from "../../src/bundling/checkout-independent-paths.ts";

/**
 * Two checkouts of the same sources in different places, each with an installed package that
 * names its own directory and file the way re2-wasm and vscode-languageserver do.
 */
let checkouts: string[] = [];

beforeAll(() => {
  checkouts = ["one", "two"].map((name) => {
    const root = mkdtempSync(join(tmpdir(), `rule-server-checkout-${name}-`));
    mkdirSync(join(root, "node_modules", "where-am-i", "lib"), { recursive: true });
    writeFileSync(
      join(root, "node_modules", "where-am-i", "lib", "index.js"),
      "module.exports = { directory: __dirname, file: __filename, kind: typeof __dirname };\n",
    );
    writeFileSync(join(root, "main.js"), 'const where = require("where-am-i/lib/index.js");\nconsole.log(where);\n');
    return root;
  });
});
afterAll(() => {
  for (const root of checkouts) rmSync(root, { recursive: true, force: true });
});

async function bundle(root: string, plugins: BunPlugin[]): Promise<string> {
  // Minified as the release build is: unminified, comments name each module's path from the working directory.
  const result = await Bun.build({ entrypoints: [join(root, "main.js")], target: "bun", minify: true, plugins });
  if (!result.success) throw new Error(result.logs.map(String).join("\n"));
  return result.outputs[0]!.text();
}

test("without the plugin, Bun writes the checkout's absolute path into the bundle (why the plugin exists)", async () => {
  const [one, two] = await Promise.all(checkouts.map((root) => bundle(root, [])));
  expect(one).toContain(checkouts[0]!);
  expect(one).not.toBe(two);
});

test("with it, two checkouts in different places bundle to the same bytes, with paths from the project's root", async () => {
  const [one, two] = await Promise.all(checkouts.map((root) => bundle(root, [checkoutIndependentPaths(root)])));
  expect(one).toBe(two);
  expect(one).not.toContain(tmpdir());
  expect(one).toContain('"node_modules/where-am-i/lib"');
  expect(one).toContain('"node_modules/where-am-i/lib/index.js"');
  // Still a string where the package asks what it is.
  expect(one).toContain('kind:"string"');
});

test("the project's own modules and packages that name neither are bundled as they are", async () => {
  const root = checkouts[0]!;
  mkdirSync(join(root, "node_modules", "plain"), { recursive: true });
  writeFileSync(join(root, "node_modules", "plain", "index.js"), "module.exports = 42;\n");
  writeFileSync(join(root, "plain.js"), 'console.log(require("plain"), "__dirname is a word in a string");\n');
  const result = await Bun.build({
    entrypoints: [join(root, "plain.js")],
    target: "bun",
    plugins: [checkoutIndependentPaths(root)],
  });
  expect(result.success).toBe(true);
  const text = await result.outputs[0]!.text();
  expect(text).toContain("__dirname is a word in a string");
  expect(text).toContain("module.exports = 42");
});
