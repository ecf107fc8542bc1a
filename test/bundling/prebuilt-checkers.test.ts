import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prebuiltCheckerModule, prebuiltCheckers } from "../../src/bundling/prebuilt-checkers.ts";
import { CHECKED_SCHEMAS, generatedCheckerCode } from "../../src/compiler/schema/checked-schemas.ts";
import { compileChecker } from "../../src/compiler/schema/compile-checker.ts";
import { PREBUILT_CHECKER_CODE } from "../../src/compiler/schema/prebuilt-checker-code.ts";
import { readYamlFastPath } from "../../src/compiler/source/yaml-fast-path.ts";

/** The schemas' checking code the executable holds, made at build time: the code TypeBox generates, in place of the empty module. */
const scratch = mkdtempSync(join(tmpdir(), "rule-server-prebuilt-checkers-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const ROOT = join(import.meta.dir, "..", "..");

test("a bundle built with the plugin holds every checked schema's code, which checks as the generated code does", async () => {
  const entry = join(scratch, "entry.ts");
  writeFileSync(
    entry,
    `import { PREBUILT_CHECKER_CODE } from ${JSON.stringify(join(ROOT, "src", "compiler", "schema", "prebuilt-checker-code.ts"))};\nconsole.log(JSON.stringify(PREBUILT_CHECKER_CODE));\n`,
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
  const run = Bun.spawnSync([process.execPath, built.outputs[0]!.path]);
  const code = JSON.parse(run.stdout.toString()) as Record<string, string>;
  expect(Object.keys(code).sort()).toEqual(Object.keys(CHECKED_SCHEMAS).sort());
  for (const name of Object.keys(CHECKED_SCHEMAS) as (keyof typeof CHECKED_SCHEMAS)[])
    expect(code[name]).toBe(generatedCheckerCode(name));

  const document = readYamlFastPath(readFileSync(join(ROOT, "rules", "acme-payments.ruleset.yaml"), "utf8"));
  const prebuilt = compileChecker(CHECKED_SCHEMAS.RulesetDocument, code.RulesetDocument);
  expect(prebuilt.Check(document)).toBe(true);
  expect(prebuilt.Check({ ...(document as object), kind: "Ruleset" })).toBe(false);
});

test("run from source there is no prebuilt code, and the module the plugin writes is plain JavaScript", () => {
  expect(PREBUILT_CHECKER_CODE).toEqual({});
  expect(prebuiltCheckerModule()).toStartWith("export const PREBUILT_CHECKER_CODE = {");
});
