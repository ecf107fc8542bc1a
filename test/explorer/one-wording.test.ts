import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../support/run-cli.ts";

/**
 * The explorer words an explanation with the engine's wording (src/engine/explanation/*-wording.ts),
 * the words the command line prints: its views call those functions and hold no phrase of them.
 */
const EXPLORER = join(PROJECT_ROOT, "src", "explorer");
const WORDING = join(PROJECT_ROOT, "src", "engine", "explanation");
const explorerFiles = readdirSync(EXPLORER).filter((name) => name.endsWith(".ts"));
const explorerSource = (name: string): string => readFileSync(join(EXPLORER, name), "utf8");
const wordingFiles = readdirSync(WORDING).filter((name) => /-wording\.ts$|^explained-trees\.ts$/.test(name));

test("the views that show an explanation call the engine's wording", () => {
  const imports = (name: string): string[] =>
    [...explorerSource(name).matchAll(/from "\.\.\/engine\/explanation\/([\w-]+)\.ts"/g)].map((match) => match[1]!);
  expect(imports("why-view.ts")).toEqual(
    expect.arrayContaining([
      "decision-wording",
      "explained-trees",
      "resolution-wording",
      "rule-status-wording",
      "unmatched-wording",
    ]),
  );
  expect(imports("expression-tree-view.ts")).toContain("node-wording");
  expect(imports("rule-view.ts")).toContain("resolution-wording");
  expect(imports("resolutions-editor.ts")).toContain("resolution-wording");
  expect(imports("result-view.ts")).toContain("place-label");
});

test("no explorer file holds a phrase of the wording, nor a wording of its own", () => {
  // Every phrase of the wording files: string literals and template parts of three words or more.
  const phrases = new Set(
    wordingFiles.flatMap((name) =>
      [...readFileSync(join(WORDING, name), "utf8").matchAll(/["`]([^"`$\n]*[a-z] [a-z][^"`$\n]*)["`$]/g)]
        .map((match) => match[1]!.trim())
        .filter((phrase) => (phrase.match(/[a-z]+/g) ?? []).length >= 3),
    ),
  );
  expect(phrases.size).toBeGreaterThan(30);
  expect(phrases).toContain("its assertion holds");
  const copied = explorerFiles.flatMap((name) =>
    [...phrases].filter((phrase) => explorerSource(name).includes(phrase)).map((phrase) => `${name}: ${phrase}`),
  );
  expect(copied).toEqual([]);
  expect(explorerFiles).not.toContain("explanation-text.ts");
  expect(explorerFiles).not.toContain("no-item-words.ts");
});

test("the explorer writes expressions in the engine's notation: the printer's text on rule cards, the node's text in trees", () => {
  expect(explorerFiles).not.toContain("expression-text.ts");
  expect(explorerSource("rule-view.ts")).toContain('from "../engine/expression-text/print-expression-text.ts"');
  expect(explorerSource("rule-view.ts")).toContain("readableExpressionText(");
  expect(explorerSource("expression-tree-view.ts")).toContain("node.text");
  // Only the printer: the parser stays out of the page (and of the browser module).
  const imported = explorerFiles.flatMap((name) =>
    [...explorerSource(name).matchAll(/from "([^"]+)"/g)].map((m) => m[1]!),
  );
  expect(imported.filter((path) => path.includes("compiler"))).toEqual([]);
});
