/**
 * What a rules directory holds, as the server compiles it: its rulesets, the rules they resolve to
 * (each ruleset's server manifest, inherited rules included, so a child counts its parent's too),
 * and the bytes of the compiled bundles as JSON.
 */
import { NO_CUSTOM_OPERATORS } from "../../src/engine/expression/custom-operators.ts";
import type { JsonObject } from "../../src/engine/value/json-value.ts";
import { loadRulesDirectory } from "../../src/workspace/load-rules-directory.ts";

export interface DirectoryFigures {
  readonly rulesets: number;
  readonly rules: number;
  readonly bundleBytes: number;
}

/** Compiles the directory in this process; throws when it has problems (a generator that broke it). */
export function directoryFigures(directory: string): DirectoryFigures {
  const loaded = loadRulesDirectory(directory, { operators: NO_CUSTOM_OPERATORS });
  if (loaded.problems.length > 0)
    throw new Error(
      `${directory} has ${loaded.problems.length} problem(s), the first: ${loaded.problems[0]!.code} ${loaded.problems[0]!.message}`,
    );
  let rules = 0;
  let bundleBytes = 0;
  for (const { bundle } of loaded.rulesets) {
    const server = (bundle.manifests as JsonObject).server as JsonObject;
    rules += (server.rules as unknown[]).length;
    bundleBytes += Buffer.byteLength(JSON.stringify(bundle));
  }
  return { rulesets: loaded.rulesets.length, rules, bundleBytes };
}
