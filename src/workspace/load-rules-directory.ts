import { join } from "node:path";
import type { LoadProblem } from "../engine/bundle/load-problem.ts";
import type { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import type { CustomOperators } from "../engine/expression/custom-operators.ts";
import type { JsonObject } from "../engine/value/json-value.ts";
import { ruleFilesOf } from "./files/rule-files-of-directory.ts";
import type { SourceFile } from "./files/source-documents.ts";
import { sourceGoldenTests } from "./files/source-golden-tests.ts";
import {
  type BundleSignature,
  type BundleSignatures,
  signatureMismatch,
  unsignedProblem,
  verifiedSignature,
} from "./files/bundle-signatures.ts";
import { readCachePolicyFiles } from "./cache-policy-file.ts";
import { CachePolicy } from "./cache-policy.ts";
import { readRulesDirectory } from "./compile-source-file.ts";
import type { ReloadCache } from "./reload-cache.ts";
import { RuleFileLoader } from "./rule-file-loader.ts";
import { RulesetClaims } from "./ruleset-claims.ts";

/** A ruleset a rules directory defines, loaded as the server serves it. */
export interface DirectoryRuleset {
  readonly ruleset: LoadedRuleset;
  readonly bundle: JsonObject;
  readonly file: string;
  /** The source it was compiled from; absent for a compiled bundle. */
  readonly source?: SourceFile;
  /** Loaded with trusted keys: the bundle file's signature, verified against the bytes that were loaded. */
  readonly signature?: BundleSignature;
  /** A bundle file's text as it was read and checked. */
  readonly text?: string;
}

/** A rules directory read whole: what it would serve, and every problem that refuses it. */
export interface LoadedRulesDirectory {
  /** The rulesets that loaded, sources first, then bundles, each in file order. */
  readonly rulesets: readonly DirectoryRuleset[];
  readonly cachePolicy: CachePolicy;
  /** Every problem, each on its file: the directory can be served only when there is none. */
  readonly problems: readonly LoadProblem[];
  /**
   * The problems of the directory as a whole rather than of one file on its own: it cannot be read,
   * an id is defined twice across its sources and bundles, its cache policy is refused.
   */
  readonly directoryProblems: readonly LoadProblem[];
  /** Loaded with trusted keys: the ids of the keys that signed the bundles, each once. */
  readonly signedBy?: readonly string[];
}

export interface RulesDirectoryLoadOptions {
  readonly operators: CustomOperators;
  /** Runs every source's golden tests; a ruleset whose tests fail is a problem (RULE_SERVER_RUN_TESTS). */
  readonly runTests?: boolean;
  /** The loader to share with per-file checks, so that each file is compiled once. */
  readonly loader?: RuleFileLoader;
  /**
   * What earlier loads of the same directory compiled (the server's reloads): unchanged sources keep
   * their compiled ruleset. Not with `runTests` or `loader`. A load with problems is made again
   * without it, so that they are told as a fresh load tells them.
   */
  readonly cache?: ReloadCache;
  /**
   * Trusted keys are configured (RULE_SERVER_TRUSTED_KEYS), and these are the directory's bundle
   * signatures, verified (readBundleSignatures): only bundles whose signature names their bytes
   * load, and a source document is refused (SOURCE_NOT_SIGNED), since nothing signed it.
   */
  readonly signatures?: BundleSignatures;
}

/**
 * Reads a rules directory as the server serves it (SERVER.md, "Rules directory"): every source
 * compiled against the registry of its directory, every bundle loaded, each ruleset id claimed once
 * (sources, then bundles, in file order), and the cache policy checked against the ids defined.
 * The server's snapshot, `check`, `test` and the language server all stand on this, so that a
 * directory `check` passes is one the server loads.
 */
export function loadRulesDirectory(directory: string, options: RulesDirectoryLoadOptions): LoadedRulesDirectory {
  // As the directory of a file in it reads (no trailing slash), so that a shared loader finds what it read.
  const at = join(directory, ".");
  let files: ReturnType<typeof ruleFilesOf>;
  try {
    files = ruleFilesOf(at);
  } catch (error) {
    const unreadable = [
      {
        code: "RULES_DIR_UNREADABLE",
        message: `cannot read ${directory}: ${error instanceof Error ? error.message : String(error)}`,
      },
    ];
    return { rulesets: [], cachePolicy: CachePolicy.DEFAULT, problems: unreadable, directoryProblems: unreadable };
  }
  const cache = options.runTests === true || options.loader !== undefined ? undefined : options.cache;
  cache?.begin(at);
  const loader =
    options.loader ??
    new RuleFileLoader(
      options.operators,
      (read) => readRulesDirectory(read, undefined, cache === undefined ? undefined : (file) => cache.sourceFile(file)),
      cache,
    );
  const problems: LoadProblem[] = [];
  const directoryProblems: LoadProblem[] = [];
  const claims = new RulesetClaims(directoryProblems);
  const rulesets: DirectoryRuleset[] = [];
  const claim = (
    id: string,
    file: string,
    place?: () => { readonly line: number; readonly column?: number } | undefined,
  ): boolean => {
    if (claims.claim(id, file, place)) return true;
    problems.push(directoryProblems.at(-1)!);
    return false;
  };

  const { signatures } = options;
  const signedBy = new Set<string>();
  for (const source of loader.directory(at).sources) {
    if (signatures !== undefined) {
      problems.push(unsignedProblem(source.file, "source", signatures)!);
      continue;
    }
    const readable = source.document !== undefined && source.problems.length === 0;
    if (
      readable &&
      source.id !== undefined &&
      !claim(source.id, source.file, () => source.locate?.(["metadata", "id"], "value"))
    )
      continue;
    const loaded = loader.load(source.file);
    if (!loaded.ok) {
      problems.push(...loaded.problems);
      continue;
    }
    if (options.runTests === true) {
      const failed = failedTestProblems(loaded.ruleset, source);
      if (failed.length > 0) {
        problems.push(...failed);
        continue;
      }
    }
    rulesets.push({ ruleset: loaded.ruleset, bundle: loaded.bundle, file: source.file, source });
  }
  for (const file of files.bundle) {
    const unsigned = signatures === undefined ? undefined : unsignedProblem(file, "bundle", signatures);
    if (unsigned !== undefined) {
      problems.push(unsigned);
      continue;
    }
    const signed = signatures === undefined ? undefined : verifiedSignature(file, signatures);
    const loaded = loader.load(file);
    if (!loaded.ok) {
      problems.push(...loaded.problems);
      continue;
    }
    if (signed !== undefined) {
      const { id, version, checksum } = loaded.ruleset;
      const mismatch = signatureMismatch(file, signed, { id, version, checksum, digest: loaded.digest ?? "" });
      if (mismatch !== undefined) {
        problems.push(mismatch);
        continue;
      }
      signedBy.add(signed.kid);
    }
    if (claim(loaded.ruleset.id, file))
      rulesets.push({
        ruleset: loaded.ruleset,
        bundle: loaded.bundle,
        file,
        ...(loaded.text === undefined ? {} : { text: loaded.text }),
        ...(signed === undefined ? {} : { signature: signed }),
      });
  }

  const policy = readCachePolicyFiles(files["cache-policy"], claims.ids());
  problems.push(...policy.problems);
  directoryProblems.push(...policy.problems);
  cache?.end();
  if (cache !== undefined && problems.length > 0)
    return loadRulesDirectory(directory, { ...options, cache: undefined });
  return {
    rulesets,
    cachePolicy: policy.policy,
    problems,
    directoryProblems,
    ...(signatures === undefined ? {} : { signedBy: [...signedBy].sort() }),
  };
}

/** A problem per failed golden test of a source, at the line of its name. */
function failedTestProblems(ruleset: LoadedRuleset, source: SourceFile): LoadProblem[] {
  return sourceGoldenTests(ruleset, source)
    .filter((outcome) => outcome.failures.length > 0)
    .map((outcome) => ({
      code: "GOLDEN_TEST_FAILED",
      message: `golden test ${JSON.stringify(outcome.name)} failed: ${outcome.failures.join("; ")}`,
      file: source.file,
      ...(outcome.line === undefined ? {} : { line: outcome.line, column: outcome.column ?? 1 }),
    }));
}
