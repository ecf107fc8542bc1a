import { describe, expect, test } from "bun:test";
import { enumOfView, kindOfView, PathViews, viewAtPath, viewOf } from "../../src/compiler/checks/schema-types.ts";
import type { JsonValue } from "../../src/engine/value/json-value.ts";

/** What the check warnings read from an entity schema: one kind where the schema is certain of it, else nothing. */
const document = {
  $defs: {
    Named: { type: "object", properties: { name: { type: "string" }, level: { enum: ["low", "high"] } } },
    Level: { type: "string", enum: ["low", "mid", "high"] },
  },
} as JsonValue;
const kindOf = (schema: JsonValue): string | undefined => kindOfView(viewOf(document, schema));

describe("the kind of a schema", () => {
  test("type, integer as number, array as list, and null besides one type adds nothing", () => {
    expect(kindOf({ type: "string" })).toBe("string");
    expect(kindOf({ type: "integer" })).toBe("number");
    expect(kindOf({ type: "array", items: {} })).toBe("list");
    expect(kindOf({ type: ["number", "null"] })).toBe("number");
  });

  test("a union, oneOf, anyOf, no type, an unknown type name or a $ref into another file: nothing", () => {
    expect(kindOf({ type: ["string", "number"] })).toBeUndefined();
    expect(kindOf({ oneOf: [{ type: "string" }, { type: "number" }] })).toBeUndefined();
    expect(kindOf({ anyOf: [{ type: "string" }] })).toBeUndefined();
    expect(kindOf({})).toBeUndefined();
    expect(kindOf({ type: "decimal" })).toBeUndefined();
    expect(kindOf({ $ref: "./other.json#/Level" })).toBeUndefined();
    expect(kindOf({ allOf: [{ $ref: "./other.json#/Level" }], type: "string" })).toBeUndefined();
  });

  test("local $ref and allOf are followed; allOf members that contradict each other tell nothing", () => {
    expect(kindOf({ $ref: "#/$defs/Level" })).toBe("string");
    expect(kindOf({ allOf: [{ $ref: "#/$defs/Named" }, { properties: {} }] })).toBe("object");
    expect(kindOf({ allOf: [{ type: ["string", "number"] }, { type: "number" }] })).toBe("number");
    expect(kindOf({ allOf: [{ type: "string" }, { type: "number" }] })).toBeUndefined();
  });

  test("an enum without a type gives the kind of its values when they share one", () => {
    expect(kindOf({ enum: ["a", "b", null] })).toBe("string");
    expect(kindOf({ enum: ["a", 1] })).toBeUndefined();
    expect(kindOf({ const: 3 })).toBe("number");
  });
});

describe("the values a schema lists", () => {
  test("enum and const; several lists (allOf) allow the values in all", () => {
    expect(enumOfView(viewOf(document, { $ref: "#/$defs/Level" }))).toEqual(["low", "mid", "high"]);
    expect(
      enumOfView(viewOf(document, { allOf: [{ $ref: "#/$defs/Level" }, { enum: ["high", "low", "top"] }] })),
    ).toEqual(["low", "high"]);
    expect(enumOfView(viewOf(document, { const: "x" }))).toEqual(["x"]);
    expect(enumOfView(viewOf(document, { type: "string" }))).toBeUndefined();
  });
});

describe("paths", () => {
  const root = viewOf(document, {
    allOf: [
      { $ref: "#/$defs/Named" },
      { type: "object", properties: { tags: { type: "array", items: { $ref: "#/$defs/Level" } } } },
    ],
  });
  test("properties of every allOf member, list elements by a digit segment", () => {
    expect(kindOfView(viewAtPath(root, ["name"])!)).toBe("string");
    expect(enumOfView(viewAtPath(root, ["level"])!)).toEqual(["low", "high"]);
    expect(enumOfView(viewAtPath(root, ["tags", "0"])!)).toEqual(["low", "mid", "high"]);
  });
  test("a property no member lists, or a name segment on a list: unknown", () => {
    expect(viewAtPath(root, ["nope"])).toBeUndefined();
    expect(viewAtPath(root, ["tags", "first"])).toBeUndefined();
  });
});

describe("views by path", () => {
  test("a path's view is found once and is the view viewAtPath finds; an unknown path is remembered as nothing", () => {
    const root = viewOf(document, { type: "object", properties: { owner: { $ref: "#/$defs/Named" } } });
    const views = new PathViews(root);
    const name = views.at(["owner", "name"]);
    expect(name).toEqual(viewAtPath(root, ["owner", "name"]));
    expect(kindOfView(name!)).toBe("string");
    expect(views.at(["owner", "name"])).toBe(name);
    expect(views.at(["owner", "missing"])).toBeUndefined();
    expect(views.at(["owner", "missing"])).toBeUndefined();
    expect(enumOfView(views.at(["owner", "level"])!)).toEqual(["low", "high"]);
  });
});
