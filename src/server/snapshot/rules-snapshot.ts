import { sourceGoldenTests } from "../../rule-files/source-golden-tests.ts";
import { basename } from "node:path";
import { compileRuleset } from "../../compiler/compile-ruleset.ts";
import { RulesetResolver } from "../../compiler/resolve/resolve-ruleset.ts";
import { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import { LoadError, type LoadProblem } from "../../engine/bundle/load-problem.ts";
import type { CustomOperators } from "../../engine/expression/custom-operators.ts";
import type { JsonObject } from "../../engine/value/json-value.ts";
import { entitySchemaLoader } from "../../rule-files/entity-schema-files.ts";
import { readBundleFile } from "../../rule-files/read-bundle-file.ts";
import { ruleFilesOf } from "../../rule-files/rule-files-of-directory.ts";
import { documentSourcesOf, readSourceFile, refusedSourcesOf, registryOf, type SourceFile } from "../../rule-files/source-documents.ts";
import { CompressibleBody } from "../http/compressible-body.ts";
import { readCachePolicyFiles } from "../../workspace/cache-policy-file.ts";
import type { CachePolicy } from "../../workspace/cache-policy.ts";
import { RulesetClaims } from "../../workspace/ruleset-claims.ts";
import { serveRuleset, sourceListing, type RulesetEntry, type ServedRuleset } from "./served-ruleset.ts";

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
    this.entries = [...rulesets.values()].map((served) => served.entry).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.listBody = CompressibleBody.ofJson({ rulesets: this.entries });
  }
}

/** A rules directory that cannot be served; `problems` says why, file by file. */
export class SnapshotError extends Error {
  override readonly name = "SnapshotError";
  constructor(readonly problems: readonly LoadProblem[]) {
    super(`${problems.length} problem(s) in the rules directory: ${problems.map((problem) => `${problem.file ? basename(problem.file) + ": " : ""}${problem.code} ${problem.message}`).join("; ")}`);
  }
}

/**
 * Loads every ruleset, bundle and the cache policy of a directory; throws SnapshotError on any
 * problem. With `runTests` (RULE_SERVER_RUN_TESTS), a ruleset whose golden tests fail is a problem too.
 */
export function loadSnapshot(directory: string, operators: CustomOperators, generation = 0, now: Date = new Date(), runTests = false): RulesSnapshot {
  let files: ReturnType<typeof ruleFilesOf>;
  try {
    files = ruleFilesOf(directory);
  } catch (error) {
    throw new SnapshotError([{ code: "RULES_DIR_UNREADABLE", message: `cannot read ${directory}: ${error instanceof Error ? error.message : String(error)}` }]);
  }
  const problems: LoadProblem[] = [];
  const served = new Map<string, ServedRuleset>();
  const bundles = new Map<string, JsonObject>();
  const claims = new RulesetClaims(problems);

  const sources: SourceFile[] = files.source.map((file) => readSourceFile(file));
  const resolver = new RulesetResolver(registryOf(sources), refusedSourcesOf(sources));
  const documentSources = documentSourcesOf(sources);
  const loadSchema = entitySchemaLoader(directory);
  for (const source of sources) {
    problems.push(...source.problems);
    if (source.document === undefined || source.problems.length > 0) continue;
    if (source.id !== undefined && !claims.claim(source.id, source.file)) continue;
    try {
      const { bundle } = compileRuleset(source.document, { resolver, loadSchema, sources: documentSources, embedEntitySchemas: true });
      const ruleset = LoadedRuleset.fromBundle(bundle, operators);
      if (runTests) {
        const failed = failedTestProblems(ruleset, source);
        if (failed.length > 0) {
          problems.push(...failed);
          continue;
        }
      }
      served.set(ruleset.id, serveRuleset(bundle, ruleset, sourceListing(source.document as JsonObject)));
      bundles.set(ruleset.id, bundle);
    } catch (error) {
      if (!(error instanceof LoadError)) throw error;
      problems.push(...error.problems.map((problem) => ({ ...problem, file: problem.file ?? source.file })));
    }
  }
  for (const file of files.bundle) {
    const read = readBundleFile(file, operators);
    if (!read.ok) problems.push(...read.problems);
    else if (claims.claim(read.ruleset.id, file)) {
      served.set(read.ruleset.id, serveRuleset(read.bundle, read.ruleset, undefined));
      bundles.set(read.ruleset.id, read.bundle);
    }
  }

  const { policy: cachePolicy, problems: policyProblems } = readCachePolicyFiles(files["cache-policy"], new Set(served.keys()));
  problems.push(...policyProblems);
  if (problems.length > 0) throw new SnapshotError(problems);
  const missingOperators = [...served.values()]
    .map((entry) => ({ ruleset: entry.entry.id, operators: entry.ruleset.missingOperators() }))
    .filter((missing) => missing.operators.length > 0);
  return new RulesSnapshot(served, cachePolicy, now.toISOString(), missingOperators, bundles, generation);
}

/** A problem per failed golden test of a source, at the line of its name. */
function failedTestProblems(ruleset: LoadedRuleset, source: SourceFile): LoadProblem[] {
  const outcomes = sourceGoldenTests(ruleset, source);
  return outcomes
    .filter((outcome) => outcome.failures.length > 0)
    .map((outcome) => ({
      code: "GOLDEN_TEST_FAILED",
      message: `golden test ${JSON.stringify(outcome.name)} failed: ${outcome.failures.join("; ")}`,
      file: source.file,
      ...(outcome.line === undefined ? {} : { line: outcome.line, column: outcome.column ?? 1 }),
    }));
}
