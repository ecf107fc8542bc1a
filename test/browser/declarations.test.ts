import { beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtBrowserModule } from "../support/build-release.ts";
import { PROJECT_ROOT } from "../support/run-cli.ts";
import { temporaryDirectory } from "../support/temp-directory.ts";

/**
 * browser/rule-cascade.d.ts, as build.ts writes it, is one self-contained file a page's TypeScript
 * reads: a consumer type-checks against it, and its types are real (a wrong call is an error, not
 * `any`).
 */
let declarations = "";
beforeAll(() => {
  declarations = readFileSync(join(builtBrowserModule(), "..", "rule-cascade.d.ts"), "utf8");
}, 60000);

const consumer = `
import { fetchRuleset, loadRuleset, LoadError, RequestShapeError, type EvaluationResult, type Ruleset } from "./rule-cascade.js";
const ruleset: Ruleset = await loadRuleset({ id: "x" }, { operators: { "x-upper": (text) => String(text).toUpperCase() } });
const result: EvaluationResult = ruleset.evaluate({ entity: "Order", operation: "create", data: {} }, "client");
const codes: string[] = result.findings.map((finding) => finding.code);
const blocking: boolean = result.blocking;
const fetched: Ruleset = await fetchRuleset("https://rules.example", "acme.payments");
const ids: [string, string, string, readonly string[], readonly string[]] = [fetched.id, fetched.version, fetched.checksum, fetched.channels, fetched.missingOperators];
const refused = (error: unknown): string | undefined => (error instanceof LoadError ? error.problems[0]?.code : error instanceof RequestShapeError ? error.message : undefined);
export { codes, blocking, ids, refused };
`;

async function typeCheck(source: string): Promise<{ status: number; output: string }> {
  const directory = temporaryDirectory({ "consumer.ts": source });
  try {
    writeFileSync(join(directory.path, "rule-cascade.d.ts"), declarations);
    const tsc = Bun.spawnSync([
      join(PROJECT_ROOT, "node_modules", ".bin", "tsc"),
      "--ignoreConfig",
      "--noEmit",
      "--strict",
      "--target",
      "es2022",
      "--module",
      "esnext",
      "--moduleResolution",
      "bundler",
      "--lib",
      "es2023,dom",
      "--types",
      "",
      join(directory.path, "consumer.ts"),
    ]);
    return { status: tsc.exitCode, output: tsc.stdout.toString() + tsc.stderr.toString() };
  } finally {
    directory.remove();
  }
}

test("the declarations are one file: no imports, no path of the build machine", () => {
  expect(declarations).not.toMatch(/^\s*import\b/m);
  expect(declarations).not.toMatch(/\bfrom\s+"/);
  expect(declarations).not.toContain(PROJECT_ROOT);
  expect(declarations).toContain("declare function loadRuleset");
});

test("a page's TypeScript type-checks against them", async () => {
  const run = await typeCheck(consumer);
  expect(run.output).toBe("");
  expect(run.status).toBe(0);
});

test("their types are real: a wrong call is a type error", async () => {
  const run = await typeCheck(`${consumer}\nconst wrong: number = (await loadRuleset({})).evaluate({}, "public");\n`);
  expect(run.status).not.toBe(0);
  expect(run.output).toContain("consumer.ts");
});

test("a finding's severity is the specification's three, as the client's wire types say, not any string", async () => {
  const severity = `${consumer}\nconst severity: "info" | "warning" | "error" | undefined = result.findings[0]?.severity;\nexport { severity };\n`;
  const fits = await typeCheck(severity);
  expect(fits.output).toBe("");
  expect(fits.status).toBe(0);
  const other = await typeCheck(
    `${consumer}\nimport type { Finding, Severity } from "./rule-cascade.js";\nconst fatal: Finding["severity"] = "fatal";\nconst named: Severity = "fatal";\nexport { fatal, named };\n`,
  );
  expect(other.status).not.toBe(0);
  expect(other.output.match(/consumer\.ts\(\d+,\d+\): error TS2322/g)).toHaveLength(2);
});
