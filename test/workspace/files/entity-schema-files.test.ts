import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SchemaFile } from "../../../src/compiler/checks/schema-file.ts";
import { entitySchemaLoader } from "../../../src/workspace/files/entity-schema-files.ts";
import { temporaryDirectory } from "../../support/temp-directory.ts";

const documentOf = (read: SchemaFile | undefined): unknown => (read?.ok ? read.document : undefined);

/** Entity schemas are read relative to the ruleset's directory and never from outside it. */
test("a schema beside the ruleset resolves, YAML or JSON", () => {
  const dir = temporaryDirectory({
    "a.schema.json": '{"type":"object"}',
    "b.openapi.yaml": "components: { schemas: { B: { type: object } } }\n",
  });
  try {
    const load = entitySchemaLoader(dir.path);
    expect(documentOf(load("./a.schema.json"))).toEqual({ type: "object" });
    expect(documentOf(load("b.openapi.yaml"))).toEqual({ components: { schemas: { B: { type: "object" } } } });
    expect(load("./missing.json")).toEqual({
      ok: false,
      reason: "there is no such file in the rules directory",
      problems: [],
    });
  } finally {
    dir.remove();
  }
});

test("a reference that leaves the directory does not resolve", () => {
  const outer = temporaryDirectory({ "secret.json": '{"type":"object"}' });
  try {
    mkdirSync(join(outer.path, "rules"));
    const load = entitySchemaLoader(join(outer.path, "rules"));
    expect(documentOf(load("../secret.json"))).toBeUndefined();
    expect(documentOf(load(join(outer.path, "secret.json")))).toBeUndefined();
  } finally {
    outer.remove();
  }
});

test("in a ConfigMap layout the files behind ..data links are inside the directory", () => {
  const dir = temporaryDirectory({});
  try {
    mkdirSync(join(dir.path, "..2026_01"));
    writeFileSync(join(dir.path, "..2026_01", "a.schema.json"), '{"type":"object"}');
    symlinkSync("..2026_01", join(dir.path, "..data"));
    symlinkSync("..data/a.schema.json", join(dir.path, "a.schema.json"));
    expect(documentOf(entitySchemaLoader(dir.path)("./a.schema.json"))).toEqual({ type: "object" });
  } finally {
    dir.remove();
  }
});

test("a $ref without a fragment names the whole schema file, and paths are checked against it", async () => {
  const { compileSourceFile } = await import("../../../src/workspace/compile-source-file.ts");
  const ruleset = (path: string): string => `ruleCascade: "1.0.0"
kind: RuleSet
metadata: { id: acme.whole, version: 1.0.0, title: Whole-file schema }
scope: [{ level: organization, id: acme }]
entities:
  Order: { schema: { $ref: ./order.schema.json } }
rules:
  - id: order.total.positive
    kind: validation
    target: { entity: Order, field: /total }
    operations: [create]
    assert: { op: gt, args: [{ var: ${path} }, 0] }
    severity: error
    finding: { code: ACME-TOT-001, message: totalPositive }
messages: { en: { totalPositive: "The total must be positive." } }
`;
  const dir = temporaryDirectory({
    "order.schema.json": '{"type":"object","properties":{"total":{"type":"number"}}}',
    "good.ruleset.yaml": ruleset("data.total"),
    "bad.ruleset.yaml": ruleset("data.missing")
      .replace("acme.whole", "acme.whole-bad")
      .replace("ACME-TOT-001", "ACME-TOT-002"),
  });
  try {
    expect(compileSourceFile(join(dir.path, "good.ruleset.yaml")).ok).toBe(true);
    const bad = compileSourceFile(join(dir.path, "bad.ruleset.yaml"));
    expect(bad.ok ? [] : bad.problems.map((problem) => problem.code)).toEqual(["PATH_UNKNOWN"]);
  } finally {
    dir.remove();
  }
});
