import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LoadedRuleset } from "../../../src/engine/bundle/loaded-ruleset.ts";
import { conformanceOperators } from "../../../src/engine/conformance-operators.ts";
import { customOperatorsFrom } from "../../../src/engine/expression/custom-operators.ts";
import type { JsonObject } from "../../../src/engine/value/json-value.ts";
import { CASES_DIR, goldenJsonFiles } from "../../support/golden-files.ts";

/**
 * Under the server's default (warn), every golden evaluation and interop vector answers exactly as
 * before; only the cases that name an unknown entity or operation on purpose gain warnings.
 */
const ON_PURPOSE = [
  "actions.json: unlisted-operation-no-commands OPERATION_UNKNOWN",
  "selection.json: operation-not-listed OPERATION_UNKNOWN",
  "selection.json: operation-exact-case OPERATION_UNKNOWN",
  "selection.json: entity-without-bindings ENTITY_UNKNOWN",
  "selection.json: entity-exact-case ENTITY_UNKNOWN",
];
// Vector 18 asks to delete a Loan, which no rule names: nothing is selected, on purpose.
const INTEROP_ON_PURPOSE = ["18: Loan delete OPERATION_UNKNOWN"];
const operators = customOperatorsFrom(conformanceOperators);

test("golden evaluations: the same answers, warnings only where a name is wrong on purpose", () => {
  const warned: string[] = [];
  let compared = 0;
  for (const file of goldenJsonFiles("evaluations")) {
    const golden = file.content as {
      bundle?: JsonObject;
      manifest?: JsonObject;
      cases: { name: string; channel?: "server" | "client"; request: JsonObject; error?: unknown }[];
    };
    const ruleset =
      golden.bundle !== undefined
        ? LoadedRuleset.fromBundle(golden.bundle, operators)
        : LoadedRuleset.fromManifest(golden.manifest!, operators);
    for (const c of golden.cases.filter((entry) => entry.error === undefined)) {
      const { warnings, ...result } = ruleset.evaluate(c.request, c.channel, { schemaEnforcement: "warn" });
      expect(JSON.stringify(result)).toBe(JSON.stringify(ruleset.evaluate(c.request, c.channel)));
      if (warnings !== undefined)
        warned.push(`${file.name}: ${c.name} ${warnings.map((warning) => warning.code).join(",")}`);
      compared++;
    }
  }
  expect(compared).toBeGreaterThan(200);
  expect(warned).toEqual(ON_PURPOSE);
});

test("interop vectors: the same answers; only the one for an operation no rule names gains a warning", () => {
  const interop = join(CASES_DIR, "interop");
  const warned: string[] = [];
  readFileSync(join(interop, "evaluations.jsonl"), "utf8")
    .split("\n")
    .filter((text) => text.trim() !== "")
    .forEach((line, index) => {
      const c = JSON.parse(line) as { bundle: string; channel: "server" | "client"; request: JsonObject };
      const ruleset = LoadedRuleset.fromBundle(JSON.parse(readFileSync(join(interop, c.bundle), "utf8")), operators);
      const { warnings, ...result } = ruleset.evaluate(c.request, c.channel, { schemaEnforcement: "warn" });
      expect(JSON.stringify(result)).toBe(JSON.stringify(ruleset.evaluate(c.request, c.channel)));
      if (warnings !== undefined)
        warned.push(
          `${index}: ${c.request.entity} ${c.request.operation} ${warnings.map((warning) => warning.code).join(",")}`,
        );
    });
  expect(warned).toEqual(INTEROP_ON_PURPOSE);
});
