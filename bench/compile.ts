/**
 * Start-up and reload compile every ruleset: the time to compile 100 generated rulesets of 50
 * rules each (target: under one second for all of them on a 2-core machine).
 */
import { compileRuleset } from "../src/compiler/compile-ruleset.ts";
import { RulesetResolver } from "../src/compiler/resolve/resolve-ruleset.ts";
import type { JsonObject, JsonValue } from "../src/engine/value/json-value.ts";

export const RULESETS = 100;
export const RULES_PER_RULESET = 50;

export const entitySchema: JsonValue = {
  type: "object",
  properties: {
    amount: { type: "number" },
    currency: { type: "string" },
    email: { type: "string" },
    lines: { type: "array", items: { type: "object", properties: { qty: { type: "number" } } } },
    note: { type: "string" },
    total: { type: "number" },
  },
};

function rule(index: number): JsonObject {
  switch (index % 5) {
    case 0:
      return {
        id: `r.amount-${index}`,
        kind: "validation",
        target: { entity: "Order", field: "/amount" },
        operations: ["create", "update"],
        assert: { op: "lte", args: [{ var: "data.amount" }, { var: "params.limit" }] },
        severity: "error",
        finding: {
          code: `GEN-AMT-${index}`,
          message: "tooLarge",
          args: { amount: { var: "data.amount" }, limit: { var: "params.limit" } },
        },
      };
    case 1:
      return {
        id: `r.email-${index}`,
        kind: "validation",
        target: { entity: "Order", field: "/email", page: "checkout" },
        operations: ["create"],
        assert: { op: "matches", args: [{ var: "data.email" }, "^[^@]+@[^@]+$"] },
        severity: "warning",
        acknowledgement: "required",
        finding: { code: `GEN-EML-${index}`, message: "badEmail" },
      };
    case 2:
      return {
        id: `r.lines-${index}`,
        kind: "validation",
        target: { entity: "Order", field: "/qty" },
        forEach: "/lines",
        operations: ["create"],
        assert: { op: "gt", args: [{ var: "item.qty" }, 0] },
        severity: "error",
        finding: { code: `GEN-QTY-${index}`, message: "badQty" },
      };
    case 3:
      return {
        id: `r.note-${index}`,
        kind: "state",
        target: { entity: "Order", field: "/note" },
        operations: ["create", "update"],
        when: { op: "gt", args: [{ var: "data.amount" }, 100] },
        effects: [{ field: "/note", set: { required: true } }],
      };
    default:
      return {
        id: `r.total-${index}`,
        kind: "compute",
        target: { entity: "Order", field: "/total" },
        operations: ["create"],
        assign: [{ field: "/total", value: { fn: "total", args: [{ var: "data.lines" }] } }],
      };
  }
}

export function generatedRuleset(n: number): JsonObject {
  return {
    ruleCascade: "1.0.0",
    kind: "RuleSet",
    metadata: { id: `bench.generated.r${n}`, version: "1.0.0", title: `Generated ruleset ${n}` },
    scope: [{ level: "organization", id: "bench" }],
    entities: { Order: { schema: { $ref: "./order.schema.json#" } } },
    params: { limit: { type: "number", default: 1000 } },
    functions: { total: { params: ["lines"], body: { op: "sum", args: [{ var: "arg.lines" }, { var: "item.qty" }] } } },
    rules: Array.from({ length: RULES_PER_RULESET }, (_, i) => rule(i)),
    messages: {
      en: {
        tooLarge: "{amount} is above {limit}.",
        badEmail: "Check the e-mail address.",
        badQty: "Quantities must be positive.",
      },
    },
  };
}

export function benchCompile(): void {
  const documents = Array.from({ length: RULESETS }, (_, n) => generatedRuleset(n));
  const registry = new Map(
    documents.map((document) => [String((document.metadata as JsonObject).id), document as JsonValue]),
  );
  const loadSchema = () => ({ ok: true as const, document: entitySchema });
  compileRuleset(documents[0]!, { registry, loadSchema }); // warm-up: compiles the schema validator
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const resolver = new RulesetResolver(registry);
    const start = performance.now();
    for (const document of documents) compileRuleset(document, { resolver, loadSchema });
    runs.push(performance.now() - start);
  }
  runs.sort((a, b) => a - b);
  console.log(`\nCompiling ${RULESETS} rulesets of ${RULES_PER_RULESET} rules (target: under 1000 ms)`);
  console.log(
    `best ${runs[0]!.toFixed(0)} ms, median ${runs[2]!.toFixed(0)} ms, worst ${runs[4]!.toFixed(0)} ms (5 runs)`,
  );
}

if (import.meta.main) benchCompile();
