import { expect, test } from "bun:test";
import { LoadedRuleset } from "../../../src/engine/bundle/loaded-ruleset.ts";
import { RequestShapeError } from "../../../src/engine/evaluation/request-shape.ts";
import type { RuleExplanation } from "../../../src/engine/explanation/explanation.ts";
import type { JsonObject } from "../../../src/engine/value/json-value.ts";
import { inconsistentNodes } from "../../support/explanation-consistency.ts";
import { rule } from "../../support/order-rule.ts";

/** Each status a rule can have, each reason it was not selected, unmatched names and resolutions. */
const validation = (id: string, extra: JsonObject): JsonObject =>
  rule(id, "validation", {
    severity: "error",
    finding: { code: id.toUpperCase(), message: "m" },
    assert: true,
    ...extra,
  });
const manifest = (channel: "server" | "client", rules: JsonObject[]): JsonObject => ({
  ruleCascade: "1.0.0",
  id: "t.explain",
  version: "1.0.0",
  checksum: `sha256:${"0".repeat(64)}`,
  channel,
  params: { limit: 1000 },
  fieldTypes: { Order: { "/total": "Money" } },
  functions: {},
  operators: [],
  messages: { en: { m: "m" } },
  rules,
});
const RULES: JsonObject[] = [
  rule("c.fee", "compute", { assign: [{ field: "/fee", value: { op: "mul", args: [{ var: "data.total" }, 0.01] } }] }),
  rule("c.present", "compute", { assign: [{ field: "/total", value: 1, mode: "default" }] }),
  validation("v.limit", {
    assert: {
      op: "and",
      args: [
        { op: "lte", args: [{ var: "data.total" }, { var: "params.limit" }] },
        { op: "not", args: [{ op: "eq", args: [{ var: "data.country" }, "XX"] }] },
      ],
    },
  }),
  validation("v.quiet", {
    when: {
      op: "or",
      args: [
        { op: "eq", args: [{ var: "data.country" }, "FR"] },
        { op: "gt", args: [{ var: "data.total" }, 1000] },
      ],
    },
  }),
  validation("v.broken", { assert: { op: "lt", args: [{ var: "data.country" }, 3] } }),
  validation("v.disabled", { enabled: false }),
  validation("v.other-entity", { target: { entity: "Invoice" } }),
  validation("v.other-operation", { operations: ["delete"] }),
  validation("v.client-only", { enforcement: "client" }),
  validation("v.on-blur", { triggers: ["blur"] }),
  validation("v.other-page", { target: { entity: "Order", page: "checkout" } }),
  validation("v.money", { target: { type: "Money" }, assert: { op: "gte", args: [{ var: "value" }, 0] } }),
  validation("v.accept", { acceptance: { allowed: true, roles: ["manager"] }, assert: false }),
  rule("a.notify", "action", {
    commands: [{ name: "notify", type: "event", idempotencyKey: [{ var: "data.id" }], payload: {} }],
  }),
];
const bundle = {
  ruleCascadeBundle: "1.0.0",
  id: "t.explain",
  version: "1.0.0",
  checksum: `sha256:${"0".repeat(64)}`,
  manifests: {
    server: manifest("server", RULES),
    client: manifest(
      "client",
      RULES.filter((r) => r.kind !== "action" && r.enforcement !== "server"),
    ),
  },
};
const ruleset = LoadedRuleset.fromBundle(bundle);
const request: JsonObject = {
  entity: "Order",
  operation: "create",
  data: { id: "o-1", total: 500, country: "XX" },
  view: { page: "cart" },
  actor: { roles: ["clerk"] },
};
const byRule = (rules: RuleExplanation[]): Record<string, RuleExplanation> =>
  Object.fromEntries(rules.map((entry) => [entry.rule, entry]));

test("every rule in manifest order with its status and, when not selected, the first test it failed", () => {
  const { explanation } = ruleset.evaluate(request, "server", { explain: "rules" });
  expect(explanation!.rules.map((entry) => entry.rule)).toEqual(RULES.map((r) => r.id as string));
  expect(explanation!.rules.map((entry) => [entry.rule, entry.status, entry.because ?? entry.message ?? null])).toEqual(
    [
      ["c.fee", "fired", null],
      ["c.present", "passed", null],
      ["v.limit", "fired", null],
      ["v.quiet", "when-false", null],
      ["v.broken", "error", "lt expects a number, got string"],
      ["v.disabled", "not-selected", "disabled"],
      ["v.other-entity", "not-selected", "entity"],
      ["v.other-operation", "not-selected", "operation"],
      ["v.client-only", "not-selected", "enforcement"],
      ["v.on-blur", "passed", null],
      ["v.other-page", "not-selected", "view"],
      ["v.money", "passed", null],
      ["v.accept", "fired", null],
      ["a.notify", "not-selected", "decision"],
    ],
  );
});

test("on the client channel: trigger selects, actions are not there, server-only rules never appear", () => {
  const { explanation } = ruleset.evaluate({ ...request, trigger: "submit" }, "client", { explain: "rules" });
  const entries = byRule(explanation!.rules);
  expect(entries["v.on-blur"]).toMatchObject({ status: "not-selected", because: "trigger" });
  expect(entries["a.notify"]).toBeUndefined();
  // A hand-made client manifest holding an action: actions run only on the server.
  const handMade = LoadedRuleset.fromManifest(manifest("client", RULES));
  expect(
    byRule(handMade.evaluate({ ...request, data: { total: 1 } }, "client", { explain: "rules" }).explanation!.rules)[
      "a.notify"
    ],
  ).toMatchObject({ status: "not-selected", because: "channel" });
});

test("an allowed evaluation runs its actions; a misspelt entity and operation get the closest declared name", () => {
  const allowed = ruleset.evaluate(
    {
      ...request,
      data: { id: "o-2", total: 5, country: "FR" },
      resolutions: [{ rule: "v.accept", type: "accept-risk", justification: "ok" }],
      actor: { roles: ["manager"] },
    },
    "server",
    { explain: "rules" },
  );
  expect(allowed.decision).toBe("deny"); // v.broken still fails closed
  const misspelt = ruleset.evaluate({ ...request, entity: "Ordre", operation: "craete" }, "server", {
    explain: "rules",
  });
  expect(misspelt.explanation!.unmatched).toEqual({
    entity: { given: "Ordre", didYouMean: "Order" },
    operation: { given: "craete", didYouMean: "create" },
  });
  expect(
    ruleset.evaluate({ ...request, operation: "zzz" }, "server", { explain: "rules" }).explanation!.unmatched,
  ).toEqual({ operation: { given: "zzz" } });
  expect(ruleset.evaluate(request, "server", { explain: "rules" }).explanation!.unmatched).toBeUndefined();
});

test("each resolution given: applied, or why not", () => {
  const resolutions: JsonObject[] = [
    { rule: "nope", type: "acknowledge" },
    { rule: "v.quiet", type: "acknowledge" },
    { rule: "v.limit", type: "accept-risk", justification: "x" },
    { rule: "v.accept", type: "acknowledge" },
    { rule: "v.accept", type: "accept-risk", justification: "because" },
  ];
  const clerk = ruleset.evaluate({ ...request, resolutions }, "server", { explain: "rules" }).explanation!.resolutions;
  expect(clerk.map((r) => [r.rule, r.type, r.applied, r.reason ?? null])).toEqual([
    ["nope", "acknowledge", false, "rule-unknown"],
    ["v.quiet", "acknowledge", false, "no-finding"],
    ["v.limit", "accept-risk", false, "type-not-accepted"],
    ["v.accept", "acknowledge", false, "type-not-accepted"],
    ["v.accept", "accept-risk", false, "role-not-allowed"],
  ]);
  const manager = ruleset.evaluate(
    { ...request, actor: { roles: ["manager"] }, resolutions: [{ rule: "v.accept", type: "accept-risk" }] },
    "server",
    { explain: "rules" },
  );
  expect(manager.explanation!.resolutions).toEqual([
    { rule: "v.accept", type: "accept-risk", applied: false, reason: "justification-missing" },
  ]);
  const accepted = ruleset.evaluate(
    {
      ...request,
      actor: { roles: ["manager"] },
      resolutions: [{ rule: "v.accept", type: "accept-risk", justification: "signed" }],
    },
    "server",
    { explain: "rules" },
  );
  expect(accepted.explanation!.resolutions).toEqual([{ rule: "v.accept", type: "accept-risk", applied: true }]);
});

test("full: trees with values, skipped arguments, errors, and the leaves that decided", () => {
  const result = ruleset.evaluate(request, "server", { explain: "full" });
  const entries = byRule(result.explanation!.rules);
  // A false `and`: its false argument decided; `not` flips what the leaf must be.
  expect(entries["v.limit"]!.because).toEqual(["/assert/args/1/args/0"]);
  expect(entries["v.limit"]!.assert!.args![1]).toMatchObject({ value: false, args: [{ value: true }] });
  // A false `or`: every argument decided.
  expect(entries["v.quiet"]!.because).toEqual(["/when/args/0", "/when/args/1"]);
  expect(entries["v.quiet"]!.assert).toEqual({ expr: true, text: "true", skipped: true });
  expect(entries["v.broken"]!.assert).toMatchObject({
    error: "lt expects a number, got string",
    args: [{ value: "XX" }, { expr: 3, text: "3", skipped: true }],
  });
  expect(entries["c.present"]!.assign).toEqual([{ expr: 1, text: "1", skipped: true }]);
  expect(entries["c.fee"]!.assign![0]).toMatchObject({ value: 5 });
  expect(entries["v.money"]).toMatchObject({
    field: "/total",
    assert: { value: true, args: [{ expr: { var: "value" }, value: 500 }, { value: 0 }] },
  });
  expect(entries["v.disabled"]).toEqual({
    rule: "v.disabled",
    kind: "validation",
    status: "not-selected",
    because: "disabled",
    summary: "the rule is disabled",
  });
  const input = {
    explanation: result.explanation!,
    manifest: manifest("server", RULES),
    request,
    effects: result.effects,
    operators: {},
  };
  expect(inconsistentNodes(input)).toEqual([]);
});

test("the consistency check catches a wrong value: a mutated node or leaf is reported", () => {
  const result = ruleset.evaluate(request, "server", { explain: "full" });
  const limit = result.explanation!.rules.find((entry) => entry.rule === "v.limit")!;
  limit.assert!.args![0]!.args![0]!.value = 499;
  limit.assert!.args![1]!.args![0]!.value = false;
  const problems = inconsistentNodes({
    explanation: result.explanation!,
    manifest: manifest("server", RULES),
    request,
    effects: result.effects,
    operators: {},
  });
  expect(problems).toEqual([
    'v.limit/assert/args/0/args/0: explained {"value":499}, alone {"value":500}',
    'v.limit/assert/args/1/args/0: explained {"value":false}, alone {"value":true}',
    "v.limit/assert/args/1/args/0: a deciding leaf of value false, expected true",
  ]);
});

test("a rule run per field shows the trees of one field only: the last one, or the first that fired", () => {
  const perField = LoadedRuleset.fromManifest({
    ...manifest("server", [
      validation("v.money", {
        target: { type: "Money" },
        when: { op: "exists", args: [{ var: "value" }] },
        assert: { op: "gte", args: [{ var: "value" }, 0] },
      }),
    ]),
    fieldTypes: { Order: { "/a": "Money", "/b": "Money", "/c": "Money" } },
  });
  const quiet = perField.evaluate({ entity: "Order", operation: "create", data: { a: 5, b: 7 } }, "server", {
    explain: "full",
  }).explanation!.rules[0]!;
  // /c is last: absent, so its `when` is false and no assertion of another field is shown with it.
  expect(quiet).toMatchObject({ status: "passed", field: "/c", when: { value: false } });
  expect(quiet.assert).toEqual({ expr: { op: "gte", args: [{ var: "value" }, 0] }, text: "value >= 0", skipped: true });
  const fired = perField.evaluate({ entity: "Order", operation: "create", data: { a: 5, b: -7, c: -1 } }, "server", {
    explain: "full",
  }).explanation!.rules[0]!;
  expect(fired).toMatchObject({
    status: "fired",
    field: "/b",
    when: { value: true },
    assert: { value: false, args: [{ value: -7 }, { value: 0 }] },
  });
});

test("a rule run per field or item shows the one that failed before the last, with its error, or the first that fired, with its args", () => {
  const money = validation("v.money", {
    target: { type: "Money" },
    finding: { code: "M", message: "m", args: { v: { var: "value" } } },
    assert: { op: "gte", args: [{ var: "value" }, 0] },
  });
  const items = validation("v.items", { forEach: "/items", assert: { op: "gt", args: [{ var: "item.n" }, 0] } });
  const perField = LoadedRuleset.fromManifest({
    ...manifest("server", [money, items]),
    fieldTypes: { Order: { "/a": "Money", "/b": "Money", "/c": "Money" } },
  });
  const data = { a: 5, b: "x", c: -1, items: [{ n: 1 }, { n: "y" }, { n: 2 }] };
  const [moneyEntry, itemsEntry] = perField.evaluate({ entity: "Order", operation: "create", data }, "server", {
    explain: "full",
  }).explanation!.rules;
  expect(moneyEntry).toEqual({
    rule: "v.money",
    kind: "validation",
    status: "error",
    message: "gte expects a number, got string",
    field: "/b",
    summary: "gte expects a number, got string (the rule fails closed) (shown for /b)",
    assert: {
      expr: money.assert!,
      text: "value >= 0",
      error: "gte expects a number, got string",
      args: [
        { expr: { var: "value" }, text: "value", value: "x" },
        { expr: 0, text: "0", skipped: true },
      ],
    },
  });
  expect(itemsEntry).toMatchObject({
    status: "error",
    field: "/items/1",
    assert: { error: "gt expects a number, got string", args: [{ value: "y" }, { expr: 0, skipped: true }] },
  });
  // The first that fired, before the last, is shown with its finding args.
  const fired = perField.evaluate({ entity: "Order", operation: "create", data: { a: -5, b: 3, c: -1 } }, "server", {
    explain: "full",
  }).explanation!.rules[0]!;
  expect(fired).toMatchObject({
    status: "fired",
    field: "/a",
    assert: { value: false, args: [{ value: -5 }, { value: 0 }] },
    args: { v: { expr: { var: "value" }, value: -5 } },
  });
});

test("collections show the item that decided; long values are cut and say so", () => {
  const items = Array.from({ length: 60 }, (_, index) => ({
    amount: index === 7 ? -1 : index + 1,
    note: "x".repeat(index === 0 ? 300 : 1),
  }));
  const collections = LoadedRuleset.fromManifest(
    manifest("server", [
      validation("v.items", {
        assert: { op: "all", args: [{ var: "data.items" }, { op: "gt", args: [{ var: "item.amount" }, 0] }] },
      }),
    ]),
  );
  const entry = collections.evaluate({ entity: "Order", operation: "create", data: { items } }, "server", {
    explain: "full",
  }).explanation!.rules[0]!;
  expect(entry.assert).toMatchObject({
    value: false,
    item: 7,
    args: [{ truncated: true }, { value: false, args: [{ value: -1 }, { value: 0 }] }],
  });
  expect((entry.assert!.args![0]!.value as unknown[]).length).toBe(50);
  expect(((entry.assert!.args![0]!.value as JsonObject[])[0]!.note as string).length).toBe(200);
});

test("without explain nothing changes, and another explain value is refused", () => {
  const plain = ruleset.evaluate(request, "server");
  expect(plain.explanation).toBeUndefined();
  const { explanation: _explanation, ...explained } = ruleset.evaluate(request, "server", { explain: "full" });
  expect(JSON.stringify(explained)).toBe(JSON.stringify(plain));
  expect(() => ruleset.evaluate("nope" as never, "server", { explain: "rules" })).toThrow(RequestShapeError);
});

test("rules of an x-* extension kind are listed in their manifest places, not selected because of their kind", () => {
  const hint = (id: string): JsonObject => ({
    id,
    kind: "x-ml-hint",
    target: { entity: "Order" },
    operations: ["create"],
    origin: "t@1",
    model: "fraud-v2",
  });
  const rules = [hint("x.first"), ...RULES.slice(0, 3), hint("x.middle"), ...RULES.slice(3), hint("x.last")];
  const withHints = LoadedRuleset.fromBundle({
    ...bundle,
    manifests: { server: manifest("server", rules), client: manifest("client", []) },
  });
  // The same request three times: the third comes from the list cache of `rules` mode.
  for (const mode of ["rules", "rules", "rules", "full"] as const) {
    const { explanation, decision } = withHints.evaluate(request, "server", { explain: mode });
    expect(decision).toBe(ruleset.evaluate(request, "server").decision);
    expect(explanation!.rules.map((entry) => entry.rule)).toEqual(rules.map((r) => r.id as string));
    for (const id of ["x.first", "x.middle", "x.last"])
      expect(byRule(explanation!.rules)[id]).toEqual({
        rule: id,
        kind: "x-ml-hint",
        status: "not-selected",
        because: "kind",
        summary: "its kind, x-ml-hint, is an extension no runtime runs",
      });
    expect(byRule(explanation!.rules)["v.limit"]!.status).toBe("fired");
  }
  // Without a view, the list of a request naming an entity and operation is shared per pair.
  const { view: _view, ...withoutView } = request;
  const plain = withHints.evaluate(withoutView, "server", { explain: "rules" }).explanation!.rules;
  expect(plain.map((entry) => entry.rule)).toEqual(rules.map((r) => r.id as string));
  expect(byRule(plain)["x.middle"]!.because).toBe("kind");
});

test("a resolution of a rule whose finding does not block is refused as not-blocking, one of a rule with no finding as no-finding", () => {
  const rules = [validation("v.note", { severity: "warning", assert: false }), validation("v.fine", { assert: true })];
  const warnings = LoadedRuleset.fromBundle({
    ...bundle,
    manifests: { server: manifest("server", rules), client: manifest("client", []) },
  });
  const resolutions = [
    { rule: "v.note", type: "acknowledge" },
    { rule: "v.fine", type: "acknowledge" },
  ];
  const { explanation, findings } = warnings.evaluate({ ...request, resolutions }, "server", { explain: "rules" });
  expect(findings.map((finding) => [finding.rule, finding.blocking])).toEqual([["v.note", false]]);
  expect(explanation!.resolutions.map((r) => [r.rule, r.reason ?? null])).toEqual([
    ["v.note", "not-blocking"],
    ["v.fine", "no-finding"],
  ]);
});

test("a compute rule's summary names the fields it wrote in this result, however the requests before it went", () => {
  const computing = LoadedRuleset.fromManifest(
    manifest("server", [
      rule("c.both", "compute", {
        assign: [
          { field: "/currency", value: "EUR", mode: "default" },
          { field: "/fee", value: { op: "mul", args: [{ var: "data.total" }, 0.01] }, mode: "default" },
        ],
      }),
    ]),
  );
  const summary = (data: JsonObject, explain: "rules" | "full"): string | undefined =>
    computing
      .evaluate({ ruleset: "t.explain", entity: "Order", operation: "create", data }, "server", { explain })
      .explanation!.rules.find((entry) => entry.rule === "c.both")?.summary;
  // In turn, as a server answers them: both written, then only the fee, then only the currency (a
  // part of the fields before), then both again.
  for (const explain of ["full", "rules"] as const)
    for (let round = 0; round < 2; round++) {
      expect(summary({ total: 100 }, explain)).toBe("it computed /currency and /fee");
      expect(summary({ total: 100 }, explain)).toBe("it computed /currency and /fee");
      expect(summary({ total: 100, currency: "CHF" }, explain)).toBe("it computed /fee");
      expect(summary({ total: 100, currency: "CHF" }, explain)).toBe("it computed /fee");
      expect(summary({ total: 100 }, explain)).toBe("it computed /currency and /fee");
      expect(summary({ total: 100, fee: 2 }, explain)).toBe("it computed /currency");
    }
});
