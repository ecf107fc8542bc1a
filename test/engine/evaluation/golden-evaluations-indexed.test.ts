import { describe, expect, test } from "bun:test";
import { conformanceOperators } from "../../../src/engine/conformance-operators.ts";
import type { Channel } from "../../../src/engine/bundle/channel.ts";
import { LoadedRuleset } from "../../../src/engine/bundle/loaded-ruleset.ts";
import { evaluateRequest } from "../../../src/engine/evaluation/evaluate-request.ts";
import { EvaluationPlan } from "../../../src/engine/evaluation/evaluation-plan.ts";
import { customOperatorsFrom } from "../../../src/engine/expression/custom-operators.ts";
import type { JsonObject, JsonValue } from "../../../src/engine/value/json-value.ts";
import { goldenJsonFiles } from "../../support/golden-files.ts";
import { interopEvaluations } from "../../support/interop-vectors.ts";
import { EVERY_RULE_INDEXED } from "./indexed-and-every-rule.ts";

/**
 * The golden evaluation corpus and the interop vectors with every rule indexed that an index can
 * decide (their manifests are too small for the plan's own thresholds to index them): each answer
 * must be exactly the one the corpora expect (`finding.detail` aside, and for the vectors the
 * members their own runner leaves out). Both with code generation and with closures only.
 */

/** The channel's manifest, read as a LoadedRuleset reads it, under a plan that indexes every rule it can. */
function indexedPlan(source: GoldenCase["source"], channel: JsonValue, codeGeneration: boolean): EvaluationPlan {
  const ruleset =
    source.bundle !== undefined
      ? LoadedRuleset.fromBundle(source.bundle)
      : LoadedRuleset.fromManifest(source.manifest!);
  const resolved = ruleset.resolveChannel((channel ?? undefined) as Channel | undefined);
  return new EvaluationPlan(
    ruleset.manifest(resolved),
    resolved,
    customOperatorsFrom(conformanceOperators),
    codeGeneration,
    undefined,
    EVERY_RULE_INDEXED,
  );
}

function withoutDetail(result: Record<string, unknown>): Record<string, unknown> {
  const findings = (result.findings as Record<string, unknown>[] | undefined)?.map(
    ({ detail: _detail, ...finding }) => finding,
  );
  return findings ? { ...result, findings } : result;
}

interface GoldenCase {
  name: string;
  source: { bundle?: JsonValue; manifest?: JsonValue };
  channel: JsonValue;
  request: JsonObject;
  result: Record<string, unknown>;
}

const golden: GoldenCase[] = goldenJsonFiles("evaluations").flatMap(({ name, content }) => {
  const file = content as { bundle?: JsonValue; manifest?: JsonValue; cases: JsonObject[] };
  return file.cases
    .filter((c) => c.error === undefined && typeof c.request === "object" && c.request !== null)
    .map((c) => ({
      name: `${name}: ${c.name}`,
      source: file.bundle !== undefined ? { bundle: file.bundle } : { manifest: file.manifest },
      channel: c.channel ?? null,
      request: c.request as JsonObject,
      result: c.result as Record<string, unknown>,
    }));
});

const vectors: GoldenCase[] = interopEvaluations();

/** The members the interop vectors leave out, as their own runner drops them. */
function withoutOurMembers(result: Record<string, unknown>): Record<string, unknown> {
  const { blocking: _blocking, resolution: _resolution, acceptableBy: _acceptableBy, ...rest } = result;
  const findings = (rest.findings as Record<string, unknown>[]).map(({ args: _args, ...finding }) => finding);
  return { ...rest, findings };
}

test("the corpora are there", () => {
  expect(golden.length).toBeGreaterThan(100);
  expect(vectors.length).toBeGreaterThan(10);
});

for (const codeGeneration of [true, false]) {
  describe(`evaluations with every rule indexed, ${codeGeneration ? "code generated" : "closures only"}`, () => {
    for (const c of [...golden, ...vectors]) {
      test(c.name, () => {
        const result = evaluateRequest(
          indexedPlan(c.source, c.channel, codeGeneration),
          c.request,
        ) as unknown as Record<string, unknown>;
        const compared = c.name.startsWith("interop")
          ? (answer: Record<string, unknown>) => withoutOurMembers(withoutDetail(answer))
          : withoutDetail;
        expect(compared(result)).toEqual(compared(c.result));
      });
    }
  });
}
