import { expect, test } from "bun:test";
import { literalPatternsIn } from "../../../src/engine/pattern/literal-patterns.ts";

test("the literal patterns of a bundle are found in rules, function bodies and commands, each once", () => {
  const matches = (pattern: unknown) => ({ op: "matches", args: [{ var: "data.x" }, pattern] });
  const bundle = {
    manifests: {
      server: {
        rules: [
          { id: "a", assert: matches("^a$") },
          { id: "b", when: { op: "and", args: [matches("^(b|c)$"), matches("^a$")] } },
          { id: "c", commands: [{ payload: { ok: matches("^d+$") } }] },
        ],
        functions: { f: { params: [], body: { op: "not", args: [matches("^e$")] } } },
      },
      client: { rules: [{ id: "a", assert: matches("^a$") }] },
    },
  };
  expect([...literalPatternsIn(bundle as never)].sort()).toEqual(["^(b|c)$", "^a$", "^d+$", "^e$"]);
});

test("a pattern that is not a string literal is not one", () => {
  const computed = { op: "matches", args: [{ var: "data.x" }, { var: "data.pattern" }] };
  expect([...literalPatternsIn({ rules: [{ assert: computed }, { assert: { op: "matches", args: ["^a$"] } }] } as never)]).toEqual([]);
});

test("a document nested far deeper than any call stack is walked", () => {
  let deep: unknown = { op: "matches", args: ["x", "^deep$"] };
  for (let level = 0; level < 100_000; level++) deep = { args: [deep] };
  expect([...literalPatternsIn(deep as never)]).toEqual(["^deep$"]);
});
