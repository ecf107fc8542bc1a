import { basename } from "node:path";
import type { LoadProblem } from "../../engine/bundle/load-problem.ts";
import { LoadedRuleset } from "../../engine/bundle/loaded-ruleset.ts";
import type { CustomOperators } from "../../engine/expression/custom-operators.ts";
import type { JsonObject } from "../../engine/value/json-value.ts";
import type { CachePolicy } from "../../workspace/cache-policy.ts";
import { loadRulesDirectory } from "../../workspace/load-rules-directory.ts";
import type { ReloadCache } from "../../workspace/reload-cache.ts";
import type { BundleSignatures } from "../../workspace/files/bundle-signatures.ts";
import type { SourceDescription } from "../../sources/source-description.ts";
import { CompressibleBody } from "../http/compressible-body.ts";
import {
  type RulesetEntry,
  type ServedRuleset,
  type SourceListing,
  serveRuleset,
  sourceListing,
} from "./served-ruleset.ts";

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
    /** Where the rules came from, for `/readyz`; absent for rules loaded by an embedder without a source. */
    readonly source?: SourceDescription,
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
 *
 * In two steps, loadRulesAsText then snapshotFromText, for a server: between them, once no stack
 * frame holds the load's objects, it collects the load's garbage (RulesReloader). What the snapshot
 * keeps is then made afresh from each bundle's JSON: kept as the compiler left it, it lay spread
 * among that garbage, and the heap could not give the garbage's memory back (at a thousand
 * rulesets the server settled at 330 MiB; made afresh, with the reload cache's documents packed,
 * at 207 MiB: bench/scale.ts).
 */
export function loadSnapshot(
  directory: string,
  operators: CustomOperators,
  generation = 0,
  now: Date = new Date(),
  runTests = false,
  cache?: ReloadCache,
): RulesSnapshot {
  return snapshotFromText(loadRulesAsText(directory, operators, runTests, cache), operators, generation, now, cache);
}

/**
 * A loaded rules directory with nothing of the load but each ruleset's bundle as JSON text, or,
 * for a ruleset the reload cache kept from an earlier snapshot, that snapshot's own objects.
 */
export interface RulesAsText {
  readonly rulesets: readonly RulesetAsText[];
  readonly cachePolicy: CachePolicy;
  /** How many of the rulesets compiled at this load (the others were kept from an earlier one). */
  readonly compiled: number;
  /** Loaded with trusted keys: the ids of the keys that signed the bundles. */
  readonly signedBy?: readonly string[];
}

type RulesetAsText = {
  readonly file: string;
  readonly listing: SourceListing | undefined;
  /** A signed bundle's JWS: its text is the file's, byte for byte, so that the signature holds for what is served. */
  readonly signature?: string;
} & (
  | { readonly bundleText: string }
  | { readonly kept: { readonly ruleset: LoadedRuleset; readonly bundle: JsonObject } }
);

/**
 * The first step of loadSnapshot: throws SnapshotError on any problem. The cache's compiled
 * rulesets are let go of until snapshotFromText gives them back.
 */
export function loadRulesAsText(
  directory: string,
  operators: CustomOperators,
  runTests: boolean,
  cache: ReloadCache | undefined,
  signatures?: BundleSignatures,
): RulesAsText {
  const loaded = loadRulesDirectory(directory, {
    operators,
    runTests,
    ...(cache === undefined ? {} : { cache }),
    ...(signatures === undefined ? {} : { signatures }),
  });
  if (loaded.problems.length > 0) throw new SnapshotError(loaded.problems);
  const rulesets = loaded.rulesets.map(({ file, bundle, ruleset, source, signature, text }): RulesetAsText => {
    // A signed bundle is served as the text whose digest the loader checked, byte for byte.
    if (signature !== undefined) return { file, listing: undefined, signature: signature.jws, bundleText: text! };
    // Through JSON too: a string read from a source may be a piece of the source's whole text, and keep it.
    const listing =
      source === undefined
        ? undefined
        : (JSON.parse(JSON.stringify(sourceListing(source.document as JsonObject))) as SourceListing);
    return cache?.reusedAtLastLoad(file, ruleset)
      ? { file, listing, kept: { ruleset, bundle } }
      : // A bundle file's own text parses to its bundle: no need to write it again.
        { file, listing, bundleText: text ?? JSON.stringify(bundle) };
  });
  cache?.letGoOfCompiled();
  const compiled = rulesets.filter((entry) => "bundleText" in entry).length;
  return {
    rulesets,
    cachePolicy: loaded.cachePolicy,
    compiled,
    ...(loaded.signedBy === undefined ? {} : { signedBy: loaded.signedBy }),
  };
}

/** The second step of loadSnapshot: the snapshot, its rulesets read from their bundles' text. */
export function snapshotFromText(
  text: RulesAsText,
  operators: CustomOperators,
  generation: number,
  now: Date,
  cache: ReloadCache | undefined,
  source?: SourceDescription,
): RulesSnapshot {
  const served = new Map<string, ServedRuleset>();
  const bundles = new Map<string, JsonObject>();
  for (const entry of text.rulesets) {
    const { file, listing } = entry;
    const bundle = "kept" in entry ? entry.kept.bundle : (JSON.parse(entry.bundleText) as JsonObject);
    const ruleset = "kept" in entry ? entry.kept.ruleset : LoadedRuleset.fromBundle(bundle, operators);
    cache?.adopt(file, ruleset, bundle);
    served.set(
      ruleset.id,
      serveRuleset(
        bundle,
        ruleset,
        listing,
        entry.signature === undefined || !("bundleText" in entry)
          ? undefined
          : { jws: entry.signature, text: entry.bundleText },
      ),
    );
    bundles.set(ruleset.id, bundle);
  }
  const missingOperators = [...served.values()]
    .map((entry) => ({ ruleset: entry.entry.id, operators: entry.ruleset.missingOperators() }))
    .filter((missing) => missing.operators.length > 0);
  const described =
    source === undefined || text.signedBy === undefined ? source : { ...source, signedBy: text.signedBy };
  return new RulesSnapshot(
    served,
    text.cachePolicy,
    now.toISOString(),
    missingOperators,
    bundles,
    generation,
    described,
  );
}
