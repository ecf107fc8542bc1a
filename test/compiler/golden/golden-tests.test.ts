import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runGoldenTests } from "../../../src/compiler/golden/run-golden-tests.ts";
import { LoadedRuleset } from "../../../src/engine/bundle/loaded-ruleset.ts";
import type { JsonObject } from "../../../src/engine/value/json-value.ts";
import { CASES_DIR } from "../../support/golden-files.ts";

/**
 * The pass/fail semantics of a ruleset's golden tests (the schema's `Test` definition): the
 * decision, findings from exactly the expected rules matched member by member, effects as a subset,
 * command names in order.
 */
const shop = LoadedRuleset.fromBundle(
  JSON.parse(readFileSync(join(CASES_DIR, "interop", "shop", "shop-order.bundle.json"), "utf8")),
);
const tooMany = { data: { quantity: 150, unitPrice: 2.5, express: true, customer: { email: "a@b.c" } } };
const base = { name: "t", entity: "Order", operation: "create", given: tooMany };
const run = (expect: JsonObject, extra: JsonObject = {}): readonly string[] =>
  runGoldenTests(shop, [{ ...base, ...extra, expect }])[0]!.failures;

test("a test whose expectations all hold passes", () =>
  expect(
    run({
      decision: "deny",
      findings: [{ rule: "order.quantity.max", code: "ORD-QTY-001", blocking: true }],
      effects: [{ type: "value", field: "/total", value: 375 }],
      commands: [],
    }),
  ).toEqual([]));

test("another decision fails", () =>
  expect(run({ decision: "allow", findings: [{ rule: "order.quantity.max" }] })).toEqual([
    'decision is "deny", expected "allow"',
  ]));

test("findings must come from exactly the expected rules", () =>
  expect(run({ decision: "deny", findings: [] })[0]).toContain("findings come from [order.quantity.max]"));

test("each expected finding member must match", () =>
  expect(run({ decision: "deny", findings: [{ rule: "order.quantity.max", message: "wrong" }] })[0]).toContain(
    "no finding matches",
  ));

test("effects are a subset: an unexpected effect is fine, a missing one fails", () => {
  expect(run({ decision: "deny", findings: [{ rule: "order.quantity.max" }], effects: [] })).toEqual([]);
  expect(
    run({
      decision: "deny",
      findings: [{ rule: "order.quantity.max" }],
      effects: [{ type: "value", field: "/total", value: 1 }],
    })[0],
  ).toContain("missing effect");
});

test("command names must match in order", () => {
  const good = { data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } } };
  expect(run({ decision: "allow", findings: [], commands: ["order.created"] }, { given: good })).toEqual([]);
  expect(run({ decision: "allow", findings: [], commands: [] }, { given: good })[0]).toContain("commands are");
});

test("the channel of a test selects the manifest", () => {
  const good = { data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } } };
  expect(run({ decision: "allow", findings: [], commands: [] }, { given: good, channel: "client" })).toEqual([]);
});

test("a test whose request is malformed fails with the reason", () =>
  expect(run({ decision: "allow", findings: [] }, { given: { data: { a: 1 }, view: 5 } })[0]).toContain(
    "'view' must be an object",
  ));

test("a test's place is looked up only when it is read, once, and then says where its name is", () => {
  const asked: string[] = [];
  const locate = (path: readonly string[]) => {
    asked.push(path.join("/"));
    return { line: 10 + Number(path[1]), column: 7 };
  };
  const passing = {
    ...base,
    name: "passing",
    expect: { decision: "deny", findings: [{ rule: "order.quantity.max" }] },
  };
  const failing = { ...base, name: "failing", expect: { decision: "allow" } };
  const outcomes = runGoldenTests(shop, [passing, failing], { locate });
  expect(outcomes.map((outcome) => outcome.failures.length > 0)).toEqual([false, true]);
  expect(asked).toEqual([]);
  expect([outcomes[1]!.line, outcomes[1]!.column, outcomes[1]!.line]).toEqual([11, 7, 11]);
  expect(asked).toEqual(["tests/1/name"]);
  expect({ ...outcomes[0]! }).toMatchObject({ name: "passing", line: 10, column: 7 });
});

test("without a locator an outcome has no place", () => {
  const [outcome] = runGoldenTests(shop, [{ ...base, expect: { decision: "deny" } }]);
  expect(outcome!.line).toBeUndefined();
  expect(JSON.stringify(outcome)).not.toContain("line");
});
