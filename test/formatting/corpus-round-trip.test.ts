import { afterAll, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { compileSourceFile } from "../../src/workspace/compile-source-file.ts";
import { ruleFileKind } from "../../src/workspace/files/rule-file-kind.ts";
import { PROJECT_ROOT, runCli } from "../support/run-cli.ts";

/**
 * Issue 41's "Done when": every ruleset source of the corpora written as files (`rules/` and
 * `test/cases/**`), formatted with `fmt --expressions text` and then `--expressions tree`,
 * compiles to the bundles the original compiles to, byte for byte, and so does the text form.
 * Going back to text gives the text form again, byte for byte: the trees `fmt` writes lose nothing.
 */
const CORPORA = [join(PROJECT_ROOT, "rules"), join(PROJECT_ROOT, "test", "cases")];

/** The directories under `root` that hold a ruleset source, `root` itself included. */
function sourceDirectories(root: string): string[] {
  const entries = readdirSync(root, { withFileTypes: true });
  const here = entries.some((entry) => entry.isFile() && ruleFileKind(entry.name) === "source") ? [root] : [];
  return [
    ...here,
    ...entries.filter((entry) => entry.isDirectory()).flatMap((entry) => sourceDirectories(join(root, entry.name))),
  ];
}

const directories = CORPORA.flatMap(sourceDirectories).map((directory) => relative(PROJECT_ROOT, directory));
const sources = directories.flatMap((directory) =>
  readdirSync(join(PROJECT_ROOT, directory))
    .filter((name) => ruleFileKind(name) === "source")
    .map((name) => join(directory, name)),
);

// Each directory copied whole: schemas and the parents a source extends are read beside it.
const copy = mkdtempSync(join(tmpdir(), "rule-server-fmt-corpus-"));
for (const directory of directories) {
  mkdirSync(join(copy, directory), { recursive: true });
  for (const entry of readdirSync(join(PROJECT_ROOT, directory), { withFileTypes: true }))
    if (entry.isFile()) copyFileSync(join(PROJECT_ROOT, directory, entry.name), join(copy, directory, entry.name));
}
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** The bundle a source compiles to, as `rule-server compile` writes it. */
function bundleText(file: string): string {
  const compilation = compileSourceFile(file);
  if (!compilation.ok) throw new Error(`${file} does not compile: ${JSON.stringify(compilation.problems)}`);
  return JSON.stringify(compilation.compiled.bundle, null, 2);
}

function bundlesIn(root: string): Record<string, string> {
  return Object.fromEntries(sources.map((source) => [source, bundleText(join(root, source))]));
}

function textsIn(root: string): Record<string, string> {
  return Object.fromEntries(sources.map((source) => [source, readFileSync(join(root, source), "utf8")]));
}

/** Whether a YAML or JSON source writes an expression as text. */
function holdsText(text: string): boolean {
  return /\{\s*"?expr"?:/.test(text);
}

async function fmt(...args: string[]): Promise<void> {
  const run = await runCli(["fmt", ...args, ...directories], "", { cwd: copy });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
}

test("the corpora's sources are found: rules/ and the test cases, YAML and JSON", () => {
  expect(sources).toContain(join("rules", "acme-payments.ruleset.yaml"));
  expect(sources).toContain(join("rules", "customer-onboarding.ruleset.json"));
  expect(sources).toContain(join("test", "cases", "interop", "shop", "shop-order.ruleset.yaml"));
  expect(sources.length).toBeGreaterThanOrEqual(14);
});

test("text, then tree: every source compiles to the original's bundle in both forms, and text again gives the text form", async () => {
  const original = bundlesIn(PROJECT_ROOT);
  await fmt("--expressions", "text");
  const textForm = textsIn(copy);
  expect(sources.filter((source) => !holdsText(textForm[source]!))).toEqual([]);
  expect(bundlesIn(copy)).toEqual(original);
  await fmt("--expressions", "tree");
  expect(sources.filter((source) => holdsText(textsIn(copy)[source]!))).toEqual([]);
  expect(bundlesIn(copy)).toEqual(original);
  await fmt("--expressions", "text");
  expect(textsIn(copy)).toEqual(textForm);
});
