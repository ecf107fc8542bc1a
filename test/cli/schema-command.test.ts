import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { parse } from "yaml";
import { CASES_DIR } from "../support/golden-files.ts";
import { PROJECT_ROOT, runCli } from "../support/run-cli.ts";

/** `rule-server schema`: the JSON Schema sources are validated with, standalone, for editors. */
const run = await runCli(["schema"]);
const schema = JSON.parse(run.stdout);
const validate = new Ajv2020({ strict: true, validateFormats: false }).compile(schema);
const readDocument = (file: string): unknown =>
  file.endsWith(".json") ? JSON.parse(readFileSync(file, "utf8")) : parse(readFileSync(file, "utf8"));

test("is a draft 2020-12 JSON Schema document with its own $id, that ajv compiles in strict mode", () => {
  expect(run.status).toBe(0);
  expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  expect(typeof schema.$id).toBe("string");
  expect(run.stdout).not.toContain('"RegExp"');
});

describe("accepts the shipped rulesets", () => {
  const rulesDir = join(PROJECT_ROOT, "rules");
  const shipped = readdirSync(rulesDir).filter((name) => /\.ruleset\.(ya?ml|json)$/.test(name));
  test("there are some", () => expect(shipped.length).toBeGreaterThan(0));
  for (const name of shipped) {
    test(name, () => {
      expect(validate(readDocument(join(rulesDir, name)))).toBe(true);
    });
  }
});

test("accepts expressions written as text, alone in their object, wherever an expression stands", () => {
  const document = readDocument(join(PROJECT_ROOT, "rules", "acme-payments.ruleset.yaml")) as {
    rules: { when?: unknown }[];
  };
  const rule = document.rules.find((candidate) => candidate.when !== undefined)!;
  rule.when = { op: "and", args: [{ expr: "data.amount > 0" }, true] };
  expect(validate(document)).toBe(true);
  rule.when = { expr: "data.amount > 0", op: "and" };
  expect(validate(document)).toBe(false);
  rule.when = { expr: 5 };
  expect(validate(document)).toBe(false);
});

test("refuses a broken ruleset, as the compiler does", () => {
  const several = JSON.parse(readFileSync(join(CASES_DIR, "located-problems", "several-mistakes.json"), "utf8"));
  const broken = parse(several.cases[0].files["loans.ruleset.yaml"]);
  expect(validate(broken)).toBe(false);
  expect(validate.errors!.some((error) => error.instancePath === "/rules/0/when/op")).toBe(true);
  const fixed = structuredClone(broken);
  fixed.rules[0].when.op = "lt";
  fixed.rules[0].when.args[0].var = "data.daysLate";
  expect(validate(fixed)).toBe(true);
});
