import { afterEach, describe, expect, test } from "bun:test";
import { parseJson } from "../../../src/engine/value/parse-json.ts";
import { isDeeperThan } from "../../../src/engine/value/value-depth.ts";

/** The two walks every request takes before it is evaluated: numbers too large, and nesting. */
const prototype = Object.prototype as Record<string, unknown>;
afterEach(() => {
  delete prototype.polluted;
});

describe("a number too large for a double is found wherever it is", () => {
  test.each([
    ['{"n":1e999}'],
    ['{"a":{"b":[1,2,{"c":-1e999}]}}'],
    ["[[[[1e400]]]]"],
    ['{"__proto__":{"n":1e999}}'],
    ['{"list":[{},{},[],"x",null,true,{"deep":[[2e308]]}]}'],
  ])("%s is refused", (text) => {
    expect(parseJson(text)).toMatchObject({ ok: false, reason: "number-too-large" });
  });

  test("finite numbers, big and small, pass", () => {
    expect(parseJson('{"a":[1.7976931348623157e308,5e-324,-0,{"b":1e-999}]}')).toMatchObject({ ok: true });
  });

  test("only the document's own members count: a member a page added to Object.prototype is not the request's", () => {
    prototype.polluted = Number.POSITIVE_INFINITY;
    expect(parseJson('{"a":{"b":1}}')).toMatchObject({ ok: true });
  });
});

describe("nesting is measured over own members, lists and objects alike", () => {
  const nested = (depth: number, wrap: (inner: unknown) => unknown): unknown => {
    let value: unknown = {};
    for (let level = 1; level < depth; level++) value = wrap(value);
    return value;
  };

  test.each([
    ["objects", (inner: unknown) => ({ a: inner })],
    ["lists", (inner: unknown) => [1, inner]],
    ["__proto__ keys from JSON", (inner: unknown) => JSON.parse(`{"__proto__":${JSON.stringify(inner)}}`)],
  ])("%s: 64 deep is within the limit, 65 is not", (_name, wrap) => {
    expect(isDeeperThan(nested(64, wrap), 64)).toBe(false);
    expect(isDeeperThan(nested(65, wrap), 64)).toBe(true);
  });

  test("a deep object on Object.prototype does not make every request deep", () => {
    prototype.polluted = nested(70, (inner) => ({ a: inner }));
    expect(isDeeperThan({ a: { b: 1 } }, 64)).toBe(false);
  });
});
