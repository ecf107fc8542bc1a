import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { embedSchema, resolveLocalRef, type EmbeddedSchema } from "../../../src/engine/schema/entity-schema.ts";
import { generatedSchemaFit } from "../../../src/engine/schema/generated-schema-fit.ts";
import { SchemaGraph } from "../../../src/engine/schema/schema-graph.ts";
import { SchemaValidator } from "../../../src/engine/schema/schema-validator.ts";
import type { JsonValue } from "../../../src/engine/value/json-value.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";

/**
 * The generated form of the quick check (schema-fit.test.ts holds it to the walk on the corpus):
 * which schemas it takes, and that those it declines are still answered, by the closures and the walk.
 */
function generated(embedded: EmbeddedSchema): ((value: unknown) => boolean) | undefined {
  const graph = new SchemaGraph(embedded);
  return generatedSchemaFit(graph.root, graph.definitions);
}

test("the rules/ example's Transfer is checked by generated code", () => {
  const document = parse(readFileSync(join(PROJECT_ROOT, "rules", "payments.openapi.yaml"), "utf8")) as JsonValue;
  const fit = generated(embedSchema(document, resolveLocalRef(document, "#/components/schemas/Transfer")!));
  expect(fit).toBeDefined();
  const data = { id: "T-1", amount: 5, debtor: { iban: "DE89" }, beneficiary: { iban: "AT61" } };
  expect(fit!(data)).toBe(true);
  expect(fit!({ ...data, amount: "5" })).toBe(false);
  expect(fit!({ ...data, beneficiary: { iban: 7 } })).toBe(false);
  expect(fit!({ ...data, status: "no such status" })).toBe(false);
});

test("a chain of $refs that comes back to itself at one place is left to the closures, which leave it to the walk", () => {
  const cycle: EmbeddedSchema = {
    schema: { $ref: "#/$defs/A" },
    definitions: { "#/$defs/A": { $ref: "#/$defs/B", type: "object" }, "#/$defs/B": { $ref: "#/$defs/A" } },
  };
  expect(generated(cycle)).toBeUndefined();
  const validator = new SchemaValidator(cycle);
  expect(validator.validate({ a: 1 })).toEqual([]);
  expect(validator.validate(3).map((violation) => violation.keyword)).toContain("type");
});

test("a schema whose allOfs fan out past the bound at one place is left to the closures", () => {
  // Each level applies the next one twice at the same place: 2^10 checks of the last.
  const definitions: Record<string, JsonValue> = { "#/$defs/L10": { type: "number", minimum: 0 } };
  for (let level = 9; level >= 0; level--)
    definitions[`#/$defs/L${level}`] = {
      allOf: [{ $ref: `#/$defs/L${level + 1}` }, { $ref: `#/$defs/L${level + 1}` }],
    };
  const fanOut: EmbeddedSchema = { schema: { $ref: "#/$defs/L0" }, definitions };
  expect(generated(fanOut)).toBeUndefined();
  const validator = new SchemaValidator(fanOut);
  expect(validator.validate(1)).toEqual([]);
  expect(validator.validate(-1).length).toBeGreaterThan(0);
});

test("a schema of more nodes than the bound is left to the closures", () => {
  const properties: Record<string, JsonValue> = {};
  for (let index = 0; index < 2500; index++) properties[`p${index}`] = { type: "integer", minimum: index };
  const wide: EmbeddedSchema = { schema: { type: "object", properties }, definitions: {} };
  expect(generated(wide)).toBeUndefined();
  const validator = new SchemaValidator(wide);
  expect(validator.fits({ p3: 3 })).toBe(true);
  expect(validator.fits({ p3: 2 })).toBe(false);
});

test("names that are not identifiers, and null or boolean beside an object type, are checked as written", () => {
  const schema: EmbeddedSchema = {
    schema: {
      type: ["object", "null"],
      required: ['we"ird\\name', "__proto__"],
      properties: { 'we"ird\\name': { type: "string" }, "\u2028": { type: "integer" } },
      additionalProperties: { type: "boolean" },
    },
    definitions: {},
  };
  const fit = generated(schema);
  expect(fit).toBeDefined();
  const value = JSON.parse('{"we\\"ird\\\\name": "x", "__proto__": true, "\\u2028": 2}');
  expect(fit!(value)).toBe(true);
  expect(fit!(null)).toBe(true);
  expect(fit!(JSON.parse('{"we\\"ird\\\\name": 1, "__proto__": true}'))).toBe(false);
  expect(fit!(JSON.parse('{"we\\"ird\\\\name": "x"}'))).toBe(false);
  expect(fit!(JSON.parse('{"we\\"ird\\\\name": "x", "__proto__": true, "other": "not a boolean"}'))).toBe(false);
});

test("what only the walk decides (anyOf, uniqueItems over two items) is left to it", () => {
  const schema: EmbeddedSchema = {
    schema: {
      type: "object",
      properties: {
        tags: { type: "array", uniqueItems: true },
        kind: { anyOf: [{ type: "string" }, { type: "null" }] },
      },
    },
    definitions: {},
  };
  expect(generated(schema)).toBeDefined();
  const validator = new SchemaValidator(schema);
  expect(validator.fits({ tags: ["a"] })).toBe(true);
  expect(validator.fits({ tags: ["a", "b"] })).toBeUndefined();
  expect(validator.fits({ kind: "x" })).toBeUndefined();
  expect(validator.validate({ tags: ["a", "a"] }).map((violation) => violation.keyword)).toEqual(["uniqueItems"]);
});
