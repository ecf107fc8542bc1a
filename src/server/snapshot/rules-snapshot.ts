import { basename } from "node:path";
import type { LoadProblem } from "../../engine/bundle/load-problem.ts";
import type { CustomOperators } from "../../engine/expression/custom-operators.ts";
import type { JsonObject } from "../../engine/value/json-value.ts";
import type { CachePolicy } from "../../workspace/cache-policy.ts";
import { loadRulesDirectory } from "../../workspace/load-rules-directory.ts";
import type { ReloadCache } from "../../workspace/reload-cache.ts";
import { CompressibleBody } from "../http/compressible-body.ts";
import { type RulesetEntry, type ServedRuleset, serveRuleset, sourceListing } from "./served-ruleset.ts";

/**
 * Everything the server serves, loaded from RULES_DIR in one go (SERVER.md, "Rules directory")
 * and never changed afterwards: a reload builds a whole new snapshot and swaps it in one step.
 */
export class RulesSnapshot {
  readonly entries: readonly RulesetEntry[];
  /** The body of `GET /rulesets` without a filter, serialized once. */
  readonly listBody: CompressibleBody;

  constructor(
    readonly rulesets: ReadonlyMap<string, ServedRuleset>,
    readonly cachePolicy: CachePolicy,
    readonly loadedAt: string,
    /** Rulesets that need custom operators the host has not registered. */
    readonly missingOperators: readonly { ruleset: string; operators: string[] }[],
    /** The bundle of each ruleset, as worker threads receive the snapshot. */
    readonly bundles: ReadonlyMap<string, JsonObject> = new Map(),
    /** Counts the snapshots of one server: evaluations name the one they run against. */
    readonly generation = 0,
  ) {
    this.entries = [...rulesets.values()]
      .map((served) => served.entry)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.listBody = CompressibleBody.ofJson({ rulesets: this.entries });
  }
}

/** A rules directory that cannot be served; `problems` says why, file by file. */
export class SnapshotError extends Error {
  override readonly name = "SnapshotError";
  constructor(readonly problems: readonly LoadProblem[]) {
    super(
      `${problems.length} problem(s) in the rules directory: ${problems.map((problem) => `${problem.file ? `${basename(problem.file)}: ` : ""}${problem.code} ${problem.message}`).join("; ")}`,
    );
  }
}

/**
 * Loads a rules directory as the workspace reads it for every tool (src/workspace/), so that what
 * `check` passes is what is served; throws SnapshotError on any problem. With `runTests`
 * (RULE_SERVER_RUN_TESTS), a ruleset whose golden tests fail is a problem too.
 */
export function loadSnapshot(
  directory: string,
  operators: CustomOperators,
  generation = 0,
  now: Date = new Date(),
  runTests = false,
  cache?: ReloadCache,
): RulesSnapshot {
  const loaded = loadRulesDirectory(directory, { operators, runTests, ...(cache === undefined ? {} : { cache }) });
  if (loaded.problems.length > 0) throw new SnapshotError(loaded.problems);
  const served = new Map<string, ServedRuleset>();
  const bundles = new Map<string, JsonObject>();
  for (const { ruleset, bundle, source } of loaded.rulesets) {
    served.set(
      ruleset.id,
      serveRuleset(bundle, ruleset, source === undefined ? undefined : sourceListing(source.document as JsonObject)),
    );
    bundles.set(ruleset.id, bundle);
  }
  const missingOperators = [...served.values()]
    .map((entry) => ({ ruleset: entry.entry.id, operators: entry.ruleset.missingOperators() }))
    .filter((missing) => missing.operators.length > 0);
  return new RulesSnapshot(served, loaded.cachePolicy, now.toISOString(), missingOperators, bundles, generation);
}
