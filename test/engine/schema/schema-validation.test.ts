import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import { parse } from "yaml";
import { Decimal } from "../../../src/engine/number/decimal.ts";
import { embedSchema, resolveLocalRef, type EmbeddedSchema } from "../../../src/engine/schema/entity-schema.ts";
import { SchemaValidator } from "../../../src/engine/schema/schema-validator.ts";
import type { JsonObject, JsonValue } from "../../../src/engine/value/json-value.ts";
import { goldenJsonFiles } from "../../support/golden-files.ts";
import { PROJECT_ROOT } from "../../support/run-cli.ts";

/**
 * The golden corpus of entity schema validation (test/cases/schema-validation). Each file holds one
 * schema, either as a manifest embeds it ({schema, definitions}) or as a node of a document
 * ({document, pointer}; `document` inline or the path of a JSON or YAML file from the project
 * root, e.g. rules/payments.openapi.yaml), and cases: a value and every violation expected, in
 * order (pointer, keyword, didYouMean exactly; message when given). `decimals` turns numbers at
 * the given pointers into exact decimals (values the engine may hold); `limit` is passed on.
 *
 * Where the schema is plain JSON Schema 2020-12 (no OpenAPI 3.0 keyword, no checked format, no
 * decimal, no `"oracle": false`), ajv must agree on whether each value is valid: the expectations
 * are checked against an independent validator, not only against ours.
 */
interface ExpectedViolation {
  pointer: string;
  keyword: string;
  message?: string;
  didYouMean?: string;
}
interface SchemaCase {
  name: string;
  value: JsonValue;
  violations: ExpectedViolation[];
  limit?: number;
  decimals?: Record<string, string>;
  oracle?: boolean;
}
interface DocumentSchema {
  document: JsonValue | string;
  pointer: string;
}
interface SchemaFile {
  description: string;
  schema: EmbeddedSchema | DocumentSchema;
  oracle?: boolean;
  cases: SchemaCase[];
}

const files = goldenJsonFiles("schema-validation").map((file) => ({
  name: file.name,
  golden: file.content as SchemaFile,
}));

function loadDocument(document: JsonValue | string): JsonValue {
  if (typeof document !== "string") return document;
  const text = readFileSync(join(PROJECT_ROOT, document), "utf8");
  return (document.endsWith(".json") ? JSON.parse(text) : parse(text)) as JsonValue;
}

function isDocumentSchema(schema: EmbeddedSchema | DocumentSchema): schema is DocumentSchema {
  return Object.hasOwn(schema, "document");
}

/** The schema as the validator gets it, and the document ajv resolves it in with the pointer of the node. */
function prepare(golden: SchemaFile): {
  embedded: EmbeddedSchema;
  oracleDocument?: JsonObject;
  oraclePointer?: string;
} {
  if (isDocumentSchema(golden.schema)) {
    const document = loadDocument(golden.schema.document);
    const ref = golden.schema.pointer.startsWith("#") ? golden.schema.pointer : `#${golden.schema.pointer}`;
    const node = resolveLocalRef(document, ref);
    if (node === undefined) throw new Error(`${golden.schema.pointer} does not resolve`);
    return {
      embedded: embedSchema(document, node),
      oracleDocument: document as JsonObject,
      oraclePointer: ref.slice(1),
    };
  }
  const embedded = golden.schema;
  // ajv needs a document: the definitions placed where their pointers say, the schema beside them.
  const document: JsonObject = { "x-validated": embedded.schema };
  for (const [ref, definition] of Object.entries(embedded.definitions)) {
    if (!ref.startsWith("#/")) return { embedded };
    const tokens = ref
      .slice(2)
      .split("/")
      .map((raw) => decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~"));
    let parent: JsonObject = document;
    for (const token of tokens.slice(0, -1)) {
      const next = parent[token];
      if (next === undefined) parent = parent[token] = {};
      else if (typeof next === "object" && next !== null && !Array.isArray(next)) parent = next;
      else return { embedded };
    }
    parent[tokens[tokens.length - 1]!] = definition;
  }
  return { embedded, oracleDocument: document, oraclePointer: "/x-validated" };
}

/**
 * Whether ajv (JSON Schema 2020-12) means the same as the file's schema: not with OpenAPI 3.0's
 * `nullable` and boolean `exclusiveMinimum`/`exclusiveMaximum`, nor draft 4's list of `items`.
 * ajv takes formats as annotations: a value whose only violations are formats is valid to it.
 */
function oracleApplies(golden: SchemaFile): boolean {
  if (golden.oracle === false) return false;
  const text = JSON.stringify(isDocumentSchema(golden.schema) ? loadDocument(golden.schema.document) : golden.schema);
  return !/"nullable"|"exclusive(Minimum|Maximum)":(true|false)|"items":\[/.test(text);
}

let oracleCount = 0;
function oracleFor(document: JsonObject, pointer: string): ValidateFunction {
  // ajv divides in doubles (0.3 / 0.1 is not whole); a tolerance gives the decimal answer for the corpus's numbers.
  const ajv = new Ajv2020({ strict: false, validateFormats: false, multipleOfPrecision: 9 });
  const id = `urn:schema-validation:${++oracleCount}`;
  ajv.addSchema({ ...document, $id: id });
  const validate = ajv.getSchema(`${id}#${pointer}`);
  if (validate === undefined) throw new Error(`ajv cannot resolve ${pointer}`);
  return validate;
}

/** A copy of the value with exact decimals at the given pointers. */
function withDecimals(value: JsonValue, decimals: Record<string, string> | undefined): JsonValue {
  if (decimals === undefined) return value;
  const copy = structuredClone(value);
  let root: unknown = copy;
  for (const [pointer, text] of Object.entries(decimals)) {
    const tokens = pointer
      .split("/")
      .slice(1)
      .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (tokens.length === 0) {
      root = new Decimal(text);
      continue;
    }
    let parent = root as Record<string, unknown>;
    for (const token of tokens.slice(0, -1)) parent = parent[token] as Record<string, unknown>;
    parent[tokens[tokens.length - 1]!] = new Decimal(text);
  }
  return root as JsonValue;
}

test("the corpus is there", () => {
  expect(files.length).toBeGreaterThanOrEqual(10);
  expect(files.reduce((sum, file) => sum + file.golden.cases.length, 0)).toBeGreaterThan(150);
});

const KEYWORDS_COVERED = [
  "type",
  "required",
  "enum",
  "const",
  "format",
  "additionalProperties",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "items",
  "oneOf",
  "anyOf",
  "not",
];
test("ajv checks the expectations of most files", () => {
  expect(files.filter((file) => oracleApplies(file.golden)).length).toBeGreaterThanOrEqual(10);
});

test("every keyword has a case where it is violated", () => {
  const seen = new Set(
    files.flatMap((file) => file.golden.cases.flatMap((c) => c.violations.map((violation) => violation.keyword))),
  );
  expect(KEYWORDS_COVERED.filter((keyword) => !seen.has(keyword))).toEqual([]);
});

for (const { name, golden } of files) {
  describe(name, () => {
    const prepared = prepare(golden);
    const validator = new SchemaValidator(prepared.embedded);
    const oracle =
      oracleApplies(golden) && prepared.oracleDocument !== undefined
        ? oracleFor(prepared.oracleDocument, prepared.oraclePointer!)
        : undefined;
    for (const c of golden.cases) {
      test(c.name, () => {
        const value = withDecimals(c.value, c.decimals);
        // The expectation first: ajv must find the value valid exactly when no violation (but of a format) is expected.
        if (oracle !== undefined && c.oracle !== false && c.decimals === undefined && c.limit === undefined) {
          const validWithoutFormats = c.violations.every((violation) => violation.keyword === "format");
          expect({ ajvValid: oracle(value), errors: oracle.errors ?? null }).toMatchObject({
            ajvValid: validWithoutFormats,
          });
        }
        const violations = validator.validate(value, c.limit);
        // Every expected member compared; a message only where the case gives one.
        const expected: ExpectedViolation[] = c.violations.map((violation, index) => ({
          pointer: violation.pointer,
          keyword: violation.keyword,
          message: violation.message ?? violations[index]?.message,
          didYouMean: violation.didYouMean,
        }));
        const actual: ExpectedViolation[] = violations.map((violation) => ({
          ...violation,
          didYouMean: violation.didYouMean,
        }));
        expect(actual).toEqual(expected);
        for (const violation of violations) {
          expect(violation.message.length).toBeGreaterThan(0);
          expect(violation.pointer === "" || violation.pointer.startsWith("/")).toBe(true);
        }
        // The same value validates the same way twice: nothing of one walk stays behind.
        expect(validator.validate(value, c.limit)).toEqual(violations);
      });
    }
  });
}

/** The place a pointer names in a value, or undefined when it names none. */
function at(value: unknown, pointer: string): { found: boolean; value?: unknown } {
  let node = value;
  for (const token of pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~"))) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, token)) return { found: false };
    node = (node as Record<string, unknown>)[token];
  }
  return { found: true, value: node };
}

/** A small deterministic generator of JSON values (mulberry32). */
function randomValues(seed: number, count: number): JsonValue[] {
  let state = seed;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const names = [
    "id",
    "amount",
    "amout",
    "debtor",
    "beneficiary",
    "iban",
    "purpose",
    "name",
    "children",
    "a/b",
    "m~n",
    "",
    "__proto__",
    "list",
    "x-a",
    "tree",
    "contact",
    "email",
  ];
  const scalars: JsonValue[] = [
    null,
    true,
    false,
    0,
    -0,
    1,
    2.5,
    -7,
    1e21,
    0.1,
    "",
    "x",
    "salry",
    "2026-02-30",
    "2026-03-02T09:30:00Z",
    "😀",
    "DE89370400440532013000",
  ];
  const make = (depth: number): JsonValue => {
    const roll = next();
    if (depth > 4 || roll < 0.5) return scalars[Math.floor(next() * scalars.length)]!;
    if (roll < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => make(depth + 1));
    const object: JsonObject = {};
    for (let index = Math.floor(next() * 5); index > 0; index--)
      Object.defineProperty(object, names[Math.floor(next() * names.length)]!, {
        value: make(depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return object;
  };
  return Array.from({ length: count }, () => make(0));
}

describe("on any value", () => {
  const validators = files.map(({ name, golden }) => ({
    name,
    validator: new SchemaValidator(prepare(golden).embedded),
  }));

  test("never throws, stays within the limit, and every pointer names the value or a member missing from an object in it", () => {
    for (const value of randomValues(20260302, 400)) {
      for (const { name, validator } of validators) {
        for (const limit of [3, 50]) {
          let violations: ReturnType<typeof validator.validate>;
          try {
            violations = validator.validate(value, limit);
          } catch (error) {
            throw new Error(`${name} threw on ${JSON.stringify(value)}: ${error}`);
          }
          expect(violations.length).toBeLessThanOrEqual(limit);
          for (const violation of violations) {
            if (violation.keyword === "required") {
              const parent = at(value, violation.pointer.slice(0, violation.pointer.lastIndexOf("/")));
              expect(
                parent.found &&
                  typeof parent.value === "object" &&
                  parent.value !== null &&
                  !Array.isArray(parent.value),
              ).toBe(true);
              expect(at(value, violation.pointer).found).toBe(false);
            } else {
              expect({
                name,
                value,
                pointer: violation.pointer,
                found: at(value, violation.pointer).found,
              }).toMatchObject({ found: true });
            }
          }
        }
      }
    }
  });

  test("a value nested far deeper than requests may be ends without a stack overflow", () => {
    let deep: JsonValue = "leaf";
    for (let index = 0; index < 100000; index++) deep = [deep];
    const recursive = new SchemaValidator({
      schema: { $ref: "#/$defs/List" },
      definitions: {
        "#/$defs/List": { type: "array", items: { anyOf: [{ $ref: "#/$defs/List" }, { type: "integer" }] } },
      },
    });
    expect(() => recursive.validate(deep)).not.toThrow();
    const unique = new SchemaValidator({ schema: { uniqueItems: true, items: { type: "array" } }, definitions: {} });
    expect(unique.validate([deep, deep])).toEqual([]);
    expect(new SchemaValidator({ schema: { type: "object" }, definitions: {} }).validate(deep)).toEqual([
      { pointer: "", keyword: "type", message: "expected an object, got an array" },
    ]);
  });

  test("a schema whose objects form a cycle (as YAML aliases can make) is compiled and ends", () => {
    const node: JsonObject = { type: "object", properties: {}, allOf: [] };
    (node.properties as JsonObject).self = node;
    (node.allOf as JsonValue[]).push(node);
    const validator = new SchemaValidator({ schema: node, definitions: {} });
    expect(validator.validate({ self: { self: 1 } })).toEqual([
      { pointer: "/self/self", keyword: "type", message: "expected an object, got a number" },
    ]);
  });

  test("a limit that is no count", () => {
    const validator = new SchemaValidator({ schema: { type: "string" }, definitions: {} });
    expect(validator.validate(1, -1)).toEqual([]);
    expect(validator.validate(1, Number.NaN)).toHaveLength(1);
    expect(validator.validate(1, 2.7)).toHaveLength(1);
    expect(validator.validate(1, Infinity)).toHaveLength(1);
  });

  test("the schema a manifest may carry in any shape is compiled without throwing", () => {
    for (const schema of [
      null,
      5,
      "x",
      [],
      true,
      false,
      { type: 5 },
      { properties: [] },
      { required: [1, null] },
      { enum: null },
      { $ref: null },
      { items: [null] },
    ]) {
      expect(() =>
        new SchemaValidator({ schema: schema as JsonValue, definitions: {} }).validate({ a: [1] }),
      ).not.toThrow();
    }
    expect(() =>
      new SchemaValidator({ schema: true, definitions: null as unknown as Record<string, JsonValue> }).validate(1),
    ).not.toThrow();
  });
});
