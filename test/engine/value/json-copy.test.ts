import { expect, test } from "bun:test";
import { copyJson } from "../../../src/engine/value/json-copy.ts";
import type { JsonObject } from "../../../src/engine/value/json-value.ts";

test("a deep copy: equal in every member and order, sharing no object or array with the original", () => {
  const original = JSON.parse('{"b":[1,{"c":null,"d":[true,"x"]}],"a":{"e":-0,"f":1.5}}') as JsonObject;
  const copied = copyJson(original);
  expect(JSON.stringify(copied)).toBe(JSON.stringify(original));
  expect(Object.is((copied.a as JsonObject).e, -0)).toBe(true);
  (((copied.b as JsonObject[])[1] as JsonObject).d as unknown[]).push("changed");
  (copied.a as JsonObject).f = 2;
  expect(JSON.stringify(original)).toBe('{"b":[1,{"c":null,"d":[true,"x"]}],"a":{"e":0,"f":1.5}}');
});

test("a __proto__ member is copied as a member, not as the copy's prototype", () => {
  const original = JSON.parse('{"__proto__":{"polluted":true},"x":1}') as JsonObject;
  const copied = copyJson(original);
  expect(Object.keys(copied)).toEqual(["__proto__", "x"]);
  expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
  expect((copied as { polluted?: unknown }).polluted).toBeUndefined();
  expect(JSON.stringify(copied)).toBe(JSON.stringify(original));
});
