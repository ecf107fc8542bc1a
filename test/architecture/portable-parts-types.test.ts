import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * The engine and the compiler run in browsers too: each type-checks on its own tsconfig.json with
 * no Bun or Node types and no DOM, so that a use of Bun, Node or the page creeping in is a type
 * error there, and `make typecheck` runs both.
 */
const PORTABLE_PARTS = ["src/engine", "src/compiler"];
const NOT_PORTABLE = [/[\\/]bun-types[\\/]/, /[\\/]@types[\\/]node[\\/]/, /[\\/]@types[\\/]bun[\\/]/, /lib\.dom\./];

function typeScriptFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

for (const part of PORTABLE_PARTS) {
  test(`${part} type-checks without Bun, Node or DOM types, and its tsconfig.json covers every file of it`, () => {
    const tsc = Bun.spawnSync(
      [join(PROJECT_ROOT, "node_modules", ".bin", "tsc"), "--noEmit", "--listFiles", "-p", join(PROJECT_ROOT, part)],
      { cwd: PROJECT_ROOT, stdout: "pipe", stderr: "pipe" },
    );
    const lines = tsc.stdout.toString().trim().split("\n");
    const errors = lines.filter((line) => line.includes("error TS"));
    expect(errors.join("\n") + tsc.stderr.toString()).toBe("");
    expect(tsc.exitCode).toBe(0);
    const checked = new Set(lines.map((line) => relative(PROJECT_ROOT, line)));
    expect(lines.filter((line) => NOT_PORTABLE.some((pattern) => pattern.test(line)))).toEqual([]);
    const unchecked = typeScriptFiles(join(PROJECT_ROOT, part))
      .map((file) => relative(PROJECT_ROOT, file))
      .filter((file) => !checked.has(file));
    expect(unchecked).toEqual([]);
  }, 30000);
}

test("make typecheck runs the portable parts' type checks", () => {
  const makefile = readFileSync(join(PROJECT_ROOT, "Makefile"), "utf8");
  const start = makefile.indexOf("\ntypecheck:");
  const recipe = makefile.slice(start, makefile.indexOf("\n\n", start));
  for (const part of PORTABLE_PARTS) expect(recipe).toContain(`\tnode_modules/.bin/tsc --noEmit -p ${part}\n`);
});
