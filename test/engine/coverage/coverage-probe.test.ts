import { expect, test } from "bun:test";
import { compileRuleset } from "../../../src/compiler/compile-ruleset.ts";
import { LoadedRuleset } from "../../../src/engine/bundle/loaded-ruleset.ts";
import { CoverageProbe } from "../../../src/engine/coverage/coverage-probe.ts";
import { NO_CUSTOM_OPERATORS } from "../../../src/engine/expression/custom-operators.ts";
import type { JsonObject } from "../../../src/engine/value/json-value.ts";

/**
 * The coverage probe counts, per node of a rule's expressions, the tests (not the evaluations) in
 * which it was evaluated and gave true or false, and gives the results of a plain evaluation.
 */
const document = {
  ruleCascade: "1.0.0",
  kind: "RuleSet",
  metadata: { id: "probe.sample", version: "1.0.0", title: "Probe sample" },
  scope: [{ level: "organization", id: "probe" }],
  entities: { Order: { schema: { $ref: "./order.schema.json#/$defs/Order" } } },
  rules: [
    {
      id: "lines.positive",
      kind: "validation",
      target: { entity: "Order" },
      operations: ["create"],
      when: {
        op: "and",
        args: [
          { op: "exists", args: [{ var: "data.lines" }] },
          { op: "gt", args: [{ op: "len", args: [{ var: "data.lines" }] }, 0] },
        ],
      },
      assert: { op: "all", args: [{ var: "data.lines" }, { op: "gt", args: [{ var: "item.quantity" }, 0] }] },
      severity: "error",
      finding: { code: "ORD-001", message: "bad" },
    },
  ],
  messages: { en: { bad: "A line has no quantity." } },
} as unknown as JsonObject;

const loadSchema = () => ({ ok: true as const, document: { $defs: { Order: { type: "object" } } } });
const loaded = LoadedRuleset.fromBundle(compileRuleset(document, { loadSchema }).bundle);
const rule = loaded.manifest("server").rules as unknown as {
  when: { args: JsonObject[] };
  assert: { args: JsonObject[] };
}[];
const request = (lines: unknown): JsonObject =>
  ({ entity: "Order", operation: "create", data: lines === undefined ? {} : { lines } }) as JsonObject;

test("a node inside `all` counts once per test, true and false each when some item gave it", () => {
  const probe = new CoverageProbe(loaded, NO_CUSTOM_OPERATORS);
  probe.evaluate(request([{ quantity: 1 }, { quantity: 0 }, { quantity: 2 }]), "server");
  const body = probe.tallyOf("server", rule[0]!.assert.args[1]);
  expect(body).toMatchObject({ evaluated: 1, wasTrue: 1, wasFalse: 1 });
  probe.evaluate(request([{ quantity: 5 }]), "server");
  expect(probe.tallyOf("server", rule[0]!.assert.args[1])).toMatchObject({ evaluated: 2, wasTrue: 2, wasFalse: 1 });
  expect(probe.tallyOf("server", rule[0]!.assert)).toMatchObject({ evaluated: 2, wasTrue: 1, wasFalse: 1 });
});

test("an argument a short-circuit skipped is never evaluated; a channel no test ran on has no tallies", () => {
  const probe = new CoverageProbe(loaded, NO_CUSTOM_OPERATORS);
  const probed = probe.evaluate(request(undefined), "server");
  expect(probe.tallyOf("server", rule[0]!.when)).toMatchObject({ evaluated: 1, wasTrue: 0, wasFalse: 1 });
  expect(probe.tallyOf("server", rule[0]!.when.args[1])).toMatchObject({ evaluated: 0 });
  expect(probed.rules).toEqual([
    {
      rule: "lines.positive",
      kind: "validation",
      status: "when-false",
      summary: "its condition, exists(data.lines) && len(data.lines) > 0, is false, so it did not run",
    },
  ]);
  expect(probe.tallyOf("client", rule[0]!.when)).toBeUndefined();
});

test("the results are those of a plain evaluation, and each rule's status is told", () => {
  const probe = new CoverageProbe(loaded, NO_CUSTOM_OPERATORS);
  for (const lines of [undefined, [], [{ quantity: 0 }], [{ quantity: 3 }]]) {
    const probed = probe.evaluate(request(lines), "server");
    expect(probed.result).toEqual(loaded.evaluate(request(lines), "server"));
  }
  expect(probe.evaluate(request([{ quantity: 0 }]), "server").rules[0]!.status).toBe("fired");
  expect(() => probe.evaluate({ entity: "Order" } as JsonObject, "server")).toThrow();
});
