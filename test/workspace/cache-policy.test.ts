import { expect, test } from "bun:test";
import { CachePolicy } from "../../src/workspace/cache-policy.ts";
import type { JsonValue } from "../../src/engine/value/json-value.ts";

/** Every rule the contract gives the cache policy file. */
const served = new Set(["a.b", "c.d"]);
const problems = (document: JsonValue): string[] =>
  CachePolicy.read(document, served, "cache-policy.yaml").problems.map((problem) => problem.message);

test("a valid policy with every mode reads without problems", () => {
  const read = CachePolicy.read(
    { default: { mode: "ttl", maxAge: 60 }, rulesets: { "a.b": { mode: "permanent" }, "c.d": { mode: "revalidate" } } },
    served,
    "f",
  );
  expect(read.problems).toEqual([]);
  expect(read.policy!.cacheControl("x.y", false)).toBe("public, max-age=60");
});
test("an empty policy means revalidate", () =>
  expect(CachePolicy.read({}, served, "f").policy!.cacheControl("a.b", true)).toBe(
    "public, max-age=0, must-revalidate",
  ));
test("mode is required in every rule", () => {
  expect(problems({ default: {} })).toEqual(["default.mode is required and must be revalidate, ttl or permanent"]);
  expect(problems({ rulesets: { "a.b": { maxAge: 5 } } })[0]).toContain("mode is required");
});
test("maxAge must be above 0, and ttl needs it", () => {
  expect(problems({ default: { mode: "ttl", maxAge: 0 } })[0]).toContain(
    "maxAge must be a whole number of seconds from 1",
  );
  expect(problems({ default: { mode: "ttl" } })).toEqual(["default.maxAge is required for ttl"]);
});
test("seconds are whole and at most one year", () => {
  expect(problems({ default: { mode: "ttl", maxAge: 1.5 } }).length).toBe(1);
  expect(problems({ default: { mode: "ttl", maxAge: 31536001 } }).length).toBe(1);
  expect(
    problems({ default: { mode: "ttl", maxAge: 31536000, staleWhileRevalidate: 0, staleIfError: 31536000 } }),
  ).toEqual([]);
  expect(problems({ default: { mode: "ttl", maxAge: 10, staleIfError: -1 } }).length).toBe(1);
});
test("the seconds belong to ttl rules only", () =>
  expect(problems({ default: { mode: "permanent", maxAge: 10 } })).toEqual([
    "default.maxAge belongs to ttl rules only",
  ]));
test("every key under rulesets must be a served ruleset", () =>
  expect(problems({ rulesets: { "x.y": { mode: "revalidate" } } })).toEqual([
    "rulesets.x.y: no ruleset x.y is served",
  ]));
test("unknown members are refused, at the top and in rules", () => {
  expect(problems({ defaults: { mode: "revalidate" } })).toEqual(["unknown member 'defaults'"]);
  expect(problems({ default: { mode: "revalidate", public: true } })).toEqual(["default: unknown member 'public'"]);
});
