import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { embedSchema, resolveLocalRef } from "../../../src/engine/schema/entity-schema.ts";
import { SchemaValidator } from "../../../src/engine/schema/schema-validator.ts";
import type { JsonObject, JsonValue } from "../../../src/engine/value/json-value.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";

/**
 * embedSchema: what a manifest carries of an entity's schema. Every local `$ref` the schema
 * reaches, transitively, keyed as written; external and unresolvable ones left out.
 */
const payments = parse(readFileSync(join(PROJECT_ROOT, "rules", "payments.openapi.yaml"), "utf8")) as JsonObject;
const schemas = (payments.components as JsonObject).schemas as JsonObject;

describe("embedSchema", () => {
  test("the Transfer of rules/payments.openapi.yaml brings Party, InvoiceReference and Approval, as they are in the document", () => {
    const embedded = embedSchema(payments, schemas.Transfer!);
    expect(embedded.schema).toBe(schemas.Transfer!);
    expect(Object.keys(embedded.definitions).sort()).toEqual([
      "#/components/schemas/Approval",
      "#/components/schemas/InvoiceReference",
      "#/components/schemas/Party",
    ]);
    expect(embedded.definitions["#/components/schemas/Party"]).toBe(schemas.Party!);
  });

  test("the CustomerApplication of rules/customer.schema.json, through a $ref of its own", () => {
    const customer = JSON.parse(readFileSync(join(PROJECT_ROOT, "rules", "customer.schema.json"), "utf8")) as JsonValue;
    const embedded = embedSchema(customer, { $ref: "#/$defs/CustomerApplication" });
    expect(Object.keys(embedded.definitions).sort()).toEqual([
      "#/$defs/Address",
      "#/$defs/CustomerApplication",
      "#/$defs/IdentityDocument",
    ]);
  });

  test("references are followed transitively, through every keyword that holds schemas", () => {
    const document: JsonObject = {
      defs: {
        A: { properties: { b: { $ref: "#/defs/B" } } },
        B: { items: { $ref: "#/defs/C" } },
        C: { prefixItems: [{ $ref: "#/defs/D" }], additionalProperties: { $ref: "#/defs/E" } },
        D: {
          allOf: [{ $ref: "#/defs/F" }],
          anyOf: [{ $ref: "#/defs/G" }],
          oneOf: [{ $ref: "#/defs/H" }],
          not: { $ref: "#/defs/I" },
        },
        E: {
          patternProperties: { "^x": { $ref: "#/defs/J" } },
          if: { $ref: "#/defs/K" },
          // biome-ignore lint/suspicious/noThenProperty: `then` is a JSON Schema keyword here
          then: { $ref: "#/defs/L" },
          else: { $ref: "#/defs/M" },
        },
        F: {},
        G: {},
        H: {},
        I: {},
        J: {},
        K: {},
        L: {},
        M: {},
        Unused: { $ref: "#/defs/Never" },
        Never: {},
      },
    };
    const embedded = embedSchema(document, { $ref: "#/defs/A" });
    expect(Object.keys(embedded.definitions).sort()).toEqual("ABCDEFGHIJKLM".split("").map((name) => `#/defs/${name}`));
  });

  test("external, unresolvable and plain-name references are left out", () => {
    const document: JsonObject = { defs: { Known: { type: "string" } } };
    const schema: JsonObject = {
      properties: {
        a: { $ref: "common.yaml#/components/schemas/Money" },
        b: { $ref: "https://schemas.example/money.json" },
        c: { $ref: "#/defs/Missing" },
        d: { $ref: "#money" },
        e: { $ref: "#/defs/Known/type/deeper" },
        f: { $ref: "#/defs/Known" },
        g: { $ref: 5 },
      },
    };
    expect(embedSchema(document, schema).definitions).toEqual({ "#/defs/Known": { type: "string" } });
  });

  test("cycles end, and each reference is there once", () => {
    const document: JsonObject = {
      defs: {
        A: { properties: { b: { $ref: "#/defs/B" }, self: { $ref: "#/defs/A" } } },
        B: { items: { $ref: "#/defs/A" } },
      },
    };
    const embedded = embedSchema(document, { $ref: "#/defs/A" });
    expect(Object.keys(embedded.definitions).sort()).toEqual(["#/defs/A", "#/defs/B"]);
  });

  test("a schema that is a cycle of objects (as YAML aliases can make) ends", () => {
    const node: JsonObject = { type: "object", properties: {} };
    (node.properties as JsonObject).self = node;
    expect(embedSchema(node, node).definitions).toEqual({});
  });

  test("references are keyed exactly as written: escapes and percent-encoding kept, two spellings of one target both there", () => {
    const document: JsonObject = {
      defs: { "a/b": { type: "string" }, "m~n": { type: "number" }, "with space": { type: "boolean" } },
    };
    const schema: JsonObject = {
      anyOf: [
        { $ref: "#/defs/a~1b" },
        { $ref: "#/defs/m~0n" },
        { $ref: "#/defs/with%20space" },
        { $ref: "#/defs/with space" },
      ],
    };
    expect(embedSchema(document, schema).definitions).toEqual({
      "#/defs/a~1b": { type: "string" },
      "#/defs/m~0n": { type: "number" },
      "#/defs/with%20space": { type: "boolean" },
      "#/defs/with space": { type: "boolean" },
    });
  });

  test("data is not searched for references: enum, const, example, examples, default, x-*", () => {
    const document: JsonObject = { defs: { A: {}, B: {}, C: {}, D: {}, E: {}, F: {}, G: {} } };
    const schema: JsonObject = {
      enum: [{ $ref: "#/defs/A" }],
      const: { $ref: "#/defs/B" },
      example: { $ref: "#/defs/C" },
      examples: [{ $ref: "#/defs/D" }],
      default: { $ref: "#/defs/E" },
      "x-extra": { $ref: "#/defs/F" },
      // A member named like a keyword is a schema all the same.
      properties: { example: { $ref: "#/defs/G" } },
    };
    expect(Object.keys(embedSchema(document, schema).definitions)).toEqual(["#/defs/G"]);
  });

  test("definitions are embedded only when a reference reaches them", () => {
    const document: JsonObject = { $defs: { A: { type: "string" }, B: { type: "number" } } };
    const schema: JsonObject = { $defs: { Local: { $ref: "#/$defs/B" } }, properties: { a: { $ref: "#/$defs/A" } } };
    expect(Object.keys(embedSchema(document, schema).definitions)).toEqual(["#/$defs/A"]);
  });

  test("'#' is the whole document; list items are reached by index", () => {
    const document: JsonObject = { allOf: [{ type: "string" }, { minLength: 2 }] };
    const embedded = embedSchema(document, {
      properties: { whole: { $ref: "#" }, second: { $ref: "#/allOf/1" }, leadingZero: { $ref: "#/allOf/01" } },
    });
    expect(embedded.definitions).toEqual({ "#": document, "#/allOf/1": { minLength: 2 } });
  });

  test("a schema that is no object, and a document that is none", () => {
    expect(embedSchema(5, true)).toEqual({ schema: true, definitions: {} });
    expect(embedSchema(null, { $ref: "#/a" })).toEqual({ schema: { $ref: "#/a" }, definitions: {} });
  });

  test("what it makes survives JSON (as a manifest carries it) and validates the same", () => {
    const embedded = embedSchema(payments, schemas.Transfer!);
    const carried = JSON.parse(JSON.stringify(embedded));
    const value = {
      id: 1,
      amout: 2,
      purpose: "salry",
      debtor: { iban: 3 },
      beneficiary: {},
      invoices: [{ dueDate: "2026-02-30" }],
    } as JsonValue;
    const violations = new SchemaValidator(embedded).validate(value);
    expect(violations.length).toBe(5);
    expect(new SchemaValidator(carried).validate(value)).toEqual(violations);
  });
});

describe("resolveLocalRef", () => {
  const document: JsonObject = { a: { "b/c": [10, 20], "~": "tilde", "%": "percent", "": "empty" } };
  test.each([
    ["#", document],
    ["#/a/b~1c/1", 20],
    ["#/a/~0", "tilde"],
    ["#/a/%25", "percent"],
    ["#/a/", "empty"],
    ["#/a/b~1c/2", undefined],
    ["#/a/b~1c/-1", undefined],
    ["#/a/b~1c/length", undefined],
    ["#/a/toString", undefined],
    ["#/a/%E0%A4%A", undefined],
    ["#a", undefined],
    ["other.json#/a", undefined],
    ["", undefined],
  ] as [string, JsonValue | undefined][])("%s", (ref, expected) => {
    expect(resolveLocalRef(document, ref)).toEqual(expected as JsonValue);
  });
});
