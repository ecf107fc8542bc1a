import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { parse } from "yaml";
import { prebuiltCheckerModule, prebuiltCheckers, schemaLiteral } from "../../src/bundling/prebuilt-checkers.ts";
import { CHECKED_SCHEMAS } from "../../src/compiler/schema/checked-schemas.ts";
import { readRulesetSource } from "../../src/compiler/source/read-ruleset-source.ts";
import { validateRule, validateRulesetDocument } from "../../src/compiler/schema/validate-document.ts";

/**
 * What the executable holds in place of checked-schemas.ts, made at build time: the checking code
 * TypeBox generates and the schemas written out, built when a value fails. A document checked
 * there gets the problems it gets from source, and the schema modules are not in the bundle.
 */
const scratch = mkdtempSync(join(tmpdir(), "rule-server-prebuilt-checkers-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const ROOT = join(import.meta.dir, "..", "..");

/** Every ruleset document of the schema load-error cases (most refused, one per mistake), and the example's as the compiler reads it. */
function documents(): unknown[] {
  const cases = JSON.parse(readFileSync(join(ROOT, "test", "cases", "load-errors", "schema.json"), "utf8")) as {
    cases: { files: Record<string, string> }[];
  };
  const texts = cases.cases.flatMap((entry) =>
    Object.entries(entry.files)
      .filter(([file]) => /\.ruleset\.(ya?ml|json)$/.test(file))
      .map(([, text]) => text),
  );
  const example = join(ROOT, "rules", "acme-payments.ruleset.yaml");
  const read = readRulesetSource(readFileSync(example, "utf8"), example);
  if (!read.ok) throw new Error("the example does not read");
  return [...texts.map((text) => parse(text) as unknown), read.value];
}

test("a bundle built with the plugin finds the problems source finds, without the schema modules", async () => {
  const input = join(scratch, "documents.json");
  const all = documents();
  const rules = all.flatMap((document) => {
    const listed = (document as { rules?: unknown }).rules;
    return Array.isArray(listed) ? listed : [];
  });
  writeFileSync(input, JSON.stringify({ documents: all, rules }));
  const entry = join(scratch, "entry.ts");
  const validate = JSON.stringify(join(ROOT, "src", "compiler", "schema", "validate-document.ts"));
  writeFileSync(
    entry,
    `import { validateRule, validateRulesetDocument } from ${validate};
const { documents, rules } = await Bun.file(process.argv[2]).json();
console.log(JSON.stringify({ documents: documents.map(validateRulesetDocument), rules: rules.map(validateRule) }));\n`,
  );
  const plugin = prebuiltCheckers();
  const built = await Bun.build({
    entrypoints: [entry],
    outdir: join(scratch, "out"),
    target: "bun",
    plugins: [plugin],
  });
  expect(built.success).toBe(true);
  expect(plugin.embedded()).toBe(true);
  const bundle = await built.outputs[0]!.text();
  expect(bundle).not.toContain("src/compiler/schema/rule.ts");
  expect(bundle).not.toContain("src/compiler/schema/ruleset-document.ts");

  const run = Bun.spawnSync([process.execPath, built.outputs[0]!.path, input]);
  expect(run.stderr.toString()).toBe("");
  const prebuilt = JSON.parse(run.stdout.toString()) as { documents: unknown[]; rules: unknown[] };
  const fromSource = { documents: all.map(validateRulesetDocument), rules: rules.map(validateRule) };
  expect(prebuilt).toEqual(fromSource);
  // The cases are what they are meant to be: documents refused for many reasons, and the example accepted.
  expect(fromSource.documents.filter((problems) => (problems as unknown[]).length > 0).length).toBeGreaterThan(30);
  expect(fromSource.documents.at(-1)).toEqual([]);
});

test("a schema written out builds one with the same members, items and TypeBox markers", () => {
  for (const schema of Object.values(CHECKED_SCHEMAS)) {
    const rebuilt = new Function(`return (${schemaLiteral(schema)});`)() as unknown;
    expect(schemaLiteral(rebuilt)).toBe(schemaLiteral(schema));
    expect(rebuilt).toEqual(schema);
  }
  const optional = Type.Object({ note: Type.Optional(Type.String()) });
  expect(schemaLiteral(optional)).toContain('[Symbol.for("TypeBox.Optional")]:"Optional"');
});

test("a schema holding what cannot be written out fails the build, naming where", () => {
  expect(() => schemaLiteral({ type: "object", explain: () => "why" })).toThrow("#/explain: a schema holds function");
  expect(() => schemaLiteral({ pattern: /x/ })).toThrow("#/pattern: a schema holds an object of a class");
  expect(() => schemaLiteral({ [Symbol("own")]: 1 })).toThrow("symbol key that is not registered");
  expect(() => schemaLiteral({ maximum: Number.POSITIVE_INFINITY })).toThrow("#/maximum");
});

test("the module the plugin writes is plain JavaScript exporting what checked-schemas.ts exports to the compiler", () => {
  const module = prebuiltCheckerModule();
  expect(module).toContain("export function checkedSchema(name)");
  expect(module).toContain("export function checkerCode(name)");
  expect(() => new Function(module.replaceAll("export ", ""))).not.toThrow();
});
