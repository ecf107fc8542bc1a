import type { Channel } from "../../src/engine/bundle/channel.ts";
import { LoadedRuleset } from "../../src/engine/bundle/loaded-ruleset.ts";
import { conformanceOperators } from "../../src/engine/conformance-operators.ts";
import { customOperatorsFrom } from "../../src/engine/expression/custom-operators.ts";
import type { JsonObject, JsonValue } from "../../src/engine/value/json-value.ts";
import { goldenJsonFiles } from "./golden-files.ts";

/**
 * The golden evaluation cases (test/cases/evaluations) as the plans' tests use them: each file's
 * ruleset loaded with the conformance operators, and each case whose request names an entity and
 * an operation split into the request a plan gets (without `data`) and the case's data.
 */
export interface GoldenPlanFile {
  readonly name: string;
  /** Loaded in the test that uses it, so that a file that does not load fails that test alone. */
  readonly ruleset: () => LoadedRuleset;
  readonly cases: readonly GoldenPlanCase[];
}

export interface GoldenPlanCase {
  readonly name: string;
  readonly channel?: Channel;
  readonly withoutData: JsonObject;
  readonly data: JsonValue | undefined;
}

interface EvaluationFile {
  bundle?: JsonValue;
  manifest?: JsonValue;
  cases: { name: string; channel?: Channel; request: unknown }[];
}

export function goldenPlanFiles(): GoldenPlanFile[] {
  const files: GoldenPlanFile[] = [];
  for (const file of goldenJsonFiles("evaluations")) {
    const content = file.content as EvaluationFile;
    const document = content.bundle ?? content.manifest;
    if (document === undefined) continue;
    const operators = customOperatorsFrom(conformanceOperators);
    const cases: GoldenPlanCase[] = [];
    for (const c of content.cases) {
      const request = c.request as JsonObject;
      if (typeof request !== "object" || request === null || Array.isArray(request)) continue;
      if (typeof request.entity !== "string" || typeof request.operation !== "string") continue;
      const { data, ...withoutData } = request;
      cases.push({ name: c.name, channel: c.channel, withoutData, data });
    }
    files.push({
      name: file.name,
      ruleset: () =>
        content.bundle !== undefined
          ? LoadedRuleset.fromBundle(document, operators)
          : LoadedRuleset.fromManifest(document, operators),
      cases,
    });
  }
  return files;
}
