import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { parse } from "yaml";
import { validateRulesetDocument } from "../../../src/compiler/schema/validate-document.ts";

/**
 * Schema validation (specification section 5, step 1). The TypeBox schema must accept exactly
 * the documents the reference JSON Schema accepts: every case in test/cases/schema is checked
 * against our validator and against ajv (draft 2020-12, formats as annotations) with the copy of
 * the reference schema in test/cases/schema/rule-cascade.schema.json.
 */
interface SchemaCase {
  name: string;
  document: unknown;
  valid: boolean;
  path?: string;
}

const casesDir = join(import.meta.dir, "../../cases/schema");
const SCHEMA_FILE = "rule-cascade.schema.json";
const referenceSchema = JSON.parse(readFileSync(join(casesDir, SCHEMA_FILE), "utf8"));
const ajv = new Ajv2020({ strict: false, validateFormats: false });
const oracle = ajv.compile(referenceSchema);

const caseFiles = readdirSync(casesDir)
  .filter((file) => file.endsWith(".json") && file !== SCHEMA_FILE)
  .sort();

test("case files are present", () => {
  expect(caseFiles.length).toBeGreaterThan(0);
});

for (const file of caseFiles) {
  const cases = JSON.parse(readFileSync(join(casesDir, file), "utf8")) as SchemaCase[];
  describe(file, () => {
    for (const c of cases) {
      test(c.name, () => {
        const problems = validateRulesetDocument(c.document);
        const referenceValid = oracle(c.document);
        expect({
          reference: referenceValid,
          ours: problems.length === 0,
          errors: referenceValid ? [] : oracle.errors,
        }).toMatchObject({
          reference: c.valid,
          ours: c.valid,
        });
        for (const problem of problems) {
          expect(problem.code).toBe("SCHEMA_INVALID");
          expect(problem.message.length).toBeGreaterThan(0);
          expect(problem.path === "" || problem.path.startsWith("/")).toBe(true);
          // Plain words: no regular expression reaches an author.
          expect(problem.message).not.toMatch(/\(\?:|\[(?:a-z|A-Z|0-9)|\\d|\$$/);
        }
        if (!c.valid && c.path !== undefined) {
          expect(problems.map((problem) => problem.path)).toContain(c.path);
        }
      });
    }
  });
}

describe("interop rulesets", () => {
  const interop = join(import.meta.dir, "../../cases/interop");
  const sources = [
    "shop/shop-order.ruleset.yaml",
    ...readdirSync(join(interop, "library"))
      .filter((file) => file.endsWith(".ruleset.yaml"))
      .map((file) => `library/${file}`),
  ];
  for (const source of sources) {
    test(source, () => {
      const document = parse(readFileSync(join(interop, source), "utf8"), { schema: "core" });
      expect(validateRulesetDocument(document)).toEqual([]);
      expect(oracle(document)).toBe(true);
    });
  }
});

describe("problems", () => {
  const minimal = {
    ruleCascade: "1.0.0",
    kind: "RuleSet",
    metadata: { id: "acme", version: "1.0.0", title: "Acme" },
    scope: [{ level: "enterprise", id: "acme" }],
    rules: [] as unknown[],
  };
  const rule = {
    id: "r",
    kind: "validation",
    target: { entity: "Order" },
    operations: ["create"],
    assert: true,
    severity: "error",
    finding: { code: "A-1", message: "m" },
  };

  test("are phrased in plain English", () => {
    const problems = validateRulesetDocument({
      ...minimal,
      foo: 1,
      rules: [{ ...rule, severity: "fatal", assert: { op: "xor", args: [] } }],
    });
    expect(problems).toEqual([
      { code: "SCHEMA_INVALID", message: "unknown member `foo`", path: "/foo", part: "key" },
      {
        code: "SCHEMA_INVALID",
        message: "`xor` is not an operator (a core operator, or x- and a name for a custom one): did you mean `or`?",
        path: "/rules/0/assert/op",
        part: "value",
      },
      {
        code: "SCHEMA_INVALID",
        message: "`severity` must be one of info, warning, error, not `fatal`",
        path: "/rules/0/severity",
        part: "value",
      },
    ]);
  });

  test("suggest the operator another engine's name stands for, and the value a short form stands for", () => {
    const suggestions = (op: string, severity: string): string[] =>
      validateRulesetDocument({ ...minimal, rules: [{ ...rule, severity, assert: { op, args: [1, 2] } }] }).map(
        (problem) => problem.message,
      );
    expect(suggestions("lessOrEqual", "warn")).toEqual([
      "`lessOrEqual` is not an operator (a core operator, or x- and a name for a custom one): did you mean `lte`?",
      "`severity` must be one of info, warning, error, not `warn`: did you mean `warning`?",
    ]);
    expect(suggestions("greaterThan", "err")).toEqual([
      expect.stringMatching(/did you mean `gt`\?$/),
      expect.stringMatching(/not `err`: did you mean `error`\?$/),
    ]);
    expect(suggestions("<=", "error")[0]).toEndWith("did you mean `lte`?");
    expect(suggestions("equals", "error")[0]).toEndWith("did you mean `eq`?");
    expect(suggestions("notEqual", "error")[0]).toEndWith("did you mean `ne`?");
    expect(suggestions("length", "error")[0]).toEndWith("did you mean `len`?");
    // No alias: the closest name, as before.
    expect(suggestions("lte3", "error")[0]).toEndWith("did you mean `lte`?");
  });

  test("name the kind that requires or forbids a member", () => {
    const { finding: _finding, ...withoutFinding } = rule;
    const problems = validateRulesetDocument({
      ...minimal,
      rules: [{ ...withoutFinding, effects: [{ field: "/a", set: { visible: true } }] }],
    });
    expect(problems).toEqual([
      {
        code: "SCHEMA_INVALID",
        message: "`effects` is not allowed when kind is validation",
        path: "/rules/0/effects",
        part: "key",
      },
      {
        code: "SCHEMA_INVALID",
        message: "`finding` is required when kind is validation",
        path: "/rules/0/finding",
        part: "key",
      },
    ]);
  });

  test("report a missing kind once, not as the constraints of every kind", () => {
    const { kind: _kind, ...withoutKind } = rule;
    expect(validateRulesetDocument({ ...minimal, rules: [withoutKind] })).toEqual([
      { code: "SCHEMA_INVALID", message: "`kind` is required", path: "/rules/0/kind", part: "key" },
    ]);
  });

  test("report a missing member once, as missing", () => {
    const { metadata: _metadata, ...withoutMetadata } = minimal;
    expect(validateRulesetDocument(withoutMetadata)).toEqual([
      { code: "SCHEMA_INVALID", message: "`metadata` is required", path: "/metadata", part: "key" },
    ]);
  });

  test("say in words what a string must look like, never as a regular expression", () => {
    expect(validateRulesetDocument({ ...minimal, metadata: { ...minimal.metadata, id: "Acme" } })).toEqual([
      {
        code: "SCHEMA_INVALID",
        message:
          "`id` must be an id of lower-case letters, digits and -, in parts joined by dots (acme.orders), not `Acme`",
        path: "/metadata/id",
        part: "value",
      },
    ]);
  });

  test("escape member names in paths (RFC 6901)", () => {
    const problems = validateRulesetDocument({
      ...minimal,
      entities: { Order: { schema: { $ref: "x" }, fieldTypes: { "/a/b": "not-a-name" } } },
    });
    expect(problems).toEqual([
      {
        code: "SCHEMA_INVALID",
        message: "`/a/b` must be a name: a letter, then letters, digits or _, not `not-a-name`",
        path: "/entities/Order/fieldTypes/~1a~1b",
        part: "value",
      },
    ]);
  });

  test("a valid document is left unchanged (defaults are annotations)", () => {
    const document = structuredClone({ ...minimal, rules: [rule] });
    expect(validateRulesetDocument(document)).toEqual([]);
    expect(document).toEqual({ ...minimal, rules: [rule] });
  });
});
