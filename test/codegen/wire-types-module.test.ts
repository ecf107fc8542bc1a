import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { schemaTypeText, SchemaTypeError } from "../../src/codegen/schema-type-text.ts";
import { WIRE_TYPES_FILE, wireTypesModule } from "../../src/codegen/wire-types-module.ts";

/** src/client/wire-types.ts is openapi.yaml's component schemas as TypeScript, and stays so. */
test("src/client/wire-types.ts is what openapi.yaml gives (after a change: bun src/codegen/write-wire-types.ts)", () => {
  expect(readFileSync(WIRE_TYPES_FILE, "utf8")).toBe(wireTypesModule());
});

test("the client's request types are closed and its answer types open, as the description's use of them says", () => {
  const module = wireTypesModule();
  const declaration = (name: string): string =>
    new RegExp(`^export (?:interface|type) ${name}\\b[\\s\\S]*?^}`, "m").exec(module)![0];
  expect(declaration("EvaluationRequest")).not.toContain("[member: string]: unknown;\n}");
  expect(declaration("Rule")).toMatch(/\[member: string\]: unknown;\n}$/);
  expect(declaration("Finding")).not.toMatch(/^ {2}\[member/m);
});

describe("a schema as a TypeScript type", () => {
  const open = { openObjects: true };
  const closed = { openObjects: false };
  const type = (schema: unknown, options = open): string => schemaTypeText(schema, "#", options).replace(/\s+/g, " ");

  test("scalars, nullable types, enums and constants", () => {
    expect(type({ type: "integer" })).toBe("number");
    expect(type({ type: ["string", "null"] })).toBe("string | null");
    expect(type({ type: ["string", "null"], enum: ["client", "server", null] })).toBe('"client" | "server" | null');
    expect(type({ const: 409 })).toBe("409");
    expect(type({ type: "boolean", enum: [true] })).toBe("true");
    expect(type({ description: "any JSON value" })).toBe("unknown");
  });

  test("a pattern that fixes only a prefix is a template literal; any other pattern is a string", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expected text is a TypeScript template literal type
    expect(type({ type: "string", pattern: "^x-" })).toBe("`x-${string}`");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the expected text is a TypeScript template literal type
    expect(type({ type: "string", pattern: "^1\\." })).toBe("`1.${string}`");
    expect(type({ type: "string", pattern: "^sha256:[0-9a-f]{64}$" })).toBe("string");
  });

  test("references, lists, unions and intersections", () => {
    expect(type({ $ref: "#/components/schemas/Finding" })).toBe("Finding");
    expect(type({ type: "array", items: { type: "string", enum: ["load", "blur"] } })).toBe('("load" | "blur")[]');
    expect(type({ oneOf: [{ $ref: "#/components/schemas/A" }, { type: "null" }] })).toBe("A | null");
    expect(
      type({
        allOf: [
          { $ref: "#/components/schemas/Problem" },
          {
            type: "object",
            required: ["checksum"],
            properties: { status: { const: 409 }, checksum: { type: "string" } },
          },
        ],
      }),
    ).toBe("Problem & { status?: 409; checksum: string; }");
  });

  test("objects: required and optional members, closed, open, prefixed and typed rests", () => {
    const schema = {
      type: "object",
      required: ["id"],
      properties: { id: { type: "string" }, "x-note": { type: "string" } },
    };
    expect(type(schema, closed)).toBe('{ id: string; "x-note"?: string; }');
    expect(type(schema, open)).toBe('{ id: string; "x-note"?: string; [member: string]: unknown; }');
    expect(type({ ...schema, additionalProperties: false }, open)).toBe('{ id: string; "x-note"?: string; }');
    expect(
      type({
        type: "object",
        properties: { visible: { type: "boolean" } },
        patternProperties: { "^x-": true },
        additionalProperties: false,
      }),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the expected text is a TypeScript template literal type
    ).toBe("{ visible?: boolean; [member: `x-${string}`]: unknown; }");
    expect(type({ type: "object", additionalProperties: { type: "string" } })).toBe("{ [member: string]: string; }");
    expect(type({ type: "object" }, closed)).toBe("{ [member: string]: unknown; }");
  });

  test("a keyword it cannot type is an error naming its place, never a silent unknown", () => {
    expect(() =>
      schemaTypeText(
        { type: "object", properties: { a: { not: { type: "string" } } } },
        "#/components/schemas/X",
        open,
      ),
    ).toThrow(SchemaTypeError);
    expect(() =>
      schemaTypeText({ type: "object", properties: { a: { not: {} } } }, "#/components/schemas/X", open),
    ).toThrow("#/components/schemas/X/properties/a: the keyword 'not'");
    expect(() => schemaTypeText({ type: "object", patternProperties: { "^[a-z]+$": true } }, "#", open)).toThrow(
      "only prefix patterns",
    );
    expect(() => schemaTypeText({ $ref: "other.yaml#/X" }, "#", open)).toThrow("only #/components/schemas/");
  });
});
