import { expect, test } from "bun:test";
import type { Channel } from "../../../src/engine/bundle/channel.ts";
import { LoadedRuleset } from "../../../src/engine/bundle/loaded-ruleset.ts";
import { conformanceOperators } from "../../../src/engine/conformance-operators.ts";
import { customOperatorsFrom } from "../../../src/engine/expression/custom-operators.ts";
import { ENTITY_SCHEMAS_MEMBER, entitiesWithoutSchemaIn } from "../../../src/engine/schema/manifest-schemas.ts";
import type { JsonObject } from "../../../src/engine/value/json-value.ts";
import { answeredGoldenCases } from "../../support/golden-evaluation-requests.ts";

/**
 * Which declared entities lack a schema is read from the manifest alone (the server says so at
 * every load, and must not prepare every rule of a thousand rulesets to know): the same answer as
 * the evaluation plan's declared names give, for every manifest of the golden corpus, with its
 * schemas and without them.
 */
const manifests = [...new Set(answeredGoldenCases().map((c) => c.manifest))];

function planAnswer(manifest: JsonObject): string[] {
  const ruleset = LoadedRuleset.fromManifest(manifest, customOperatorsFrom(conformanceOperators));
  const plan = ruleset.evaluationPlan();
  return [...plan.declaredNames.entities].filter((entity) => plan.entitySchemas[entity] === undefined).sort();
}

test("the manifest's answer is the plan's, for every golden manifest with and without its schemas", () => {
  expect(manifests.length).toBeGreaterThan(20);
  let lacking = 0;
  for (const manifest of manifests) {
    const { [ENTITY_SCHEMAS_MEMBER]: _schemas, ...bare } = manifest;
    for (const form of [manifest, bare as JsonObject]) {
      expect(entitiesWithoutSchemaIn(form)).toEqual(planAnswer(form));
      lacking += entitiesWithoutSchemaIn(form).length;
    }
  }
  expect(lacking).toBeGreaterThan(0);
});

test("asking a loaded ruleset prepares no rule: its plan is made on first use", () => {
  const manifest = manifests[0]!;
  const ruleset = LoadedRuleset.fromManifest(manifest);
  const plans = (ruleset as unknown as { plans: Map<Channel, unknown> }).plans;
  ruleset.entitiesWithoutSchema();
  expect(plans.size).toBe(0);
});
