import { basename, join, resolve } from "node:path";
import type { CheckWarning } from "../compiler/checks/check-warnings.ts";
import { textExpressionWarnings } from "../compiler/checks/text-expression-warnings.ts";
import { goldenTestNameProblems } from "../compiler/golden/golden-test-names.ts";
import type { GoldenTestOutcome } from "../compiler/golden/run-golden-tests.ts";
import type { DocumentSources } from "../compiler/problems/problem-place.ts";
import type { ResolvedRuleset } from "../compiler/resolve/resolve-ruleset.ts";
import type { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import type { CustomOperators } from "../engine/expression/custom-operators.ts";
import type { JsonObject } from "../engine/value/json-value.ts";
import type { LoadProblem } from "../engine/bundle/load-problem.ts";
import { ruleFilesOf } from "./files/rule-files-of-directory.ts";
import { isDirectory, type SourceFile } from "./files/source-documents.ts";
import { readRulesDirectory } from "./compile-source-file.ts";
import type { FileReport } from "./file-report.ts";
import { loadRulesDirectory } from "./load-rules-directory.ts";
import {
  type BundleSignatures,
  signatureMismatch,
  unsignedProblem,
  verifiedSignature,
} from "./files/bundle-signatures.ts";
import { ruleFileKind } from "./files/rule-file-kind.ts";
import { type LoadedRuleFile, RuleFileLoader } from "./rule-file-loader.ts";

/** The ruleset and bundle files named, a directory standing for the rule files in it. */
export function ruleFilesNamed(targets: readonly string[]): string[] {
  const files: string[] = [];
  for (const target of targets) {
    if (isDirectory(target)) {
      const inside = ruleFilesOf(target);
      files.push(...inside.source, ...inside.bundle);
    } else files.push(resolve(target));
  }
  return files;
}

/** A source file that compiled, as the golden tests need it. */
export interface CompiledSource {
  readonly source: SourceFile;
  readonly resolved: ResolvedRuleset;
  readonly loaded: LoadedRuleset;
  readonly bundle: JsonObject;
  /** The files of the source's directory, by document: a parent's rules are placed in its own file. */
  readonly documentSources: DocumentSources;
}

export interface RuleFileCheckOptions {
  readonly operators: CustomOperators;
  /** Warnings reported as problems (`check --strict`). */
  readonly strict?: boolean;
  /** Leaves warnings out of the reports (`test` reports tests, not warnings). */
  readonly withoutWarnings?: boolean;
  /** Warns on every expression written as text, which other runtimes do not read (`check --portable`). */
  readonly portable?: boolean;
  /**
   * Trusted keys were given (`check --trusted-keys`, RULE_SERVER_TRUSTED_KEYS) and these are the
   * signatures of the files' directories, verified: what the server refuses for want of a valid
   * signature is a problem here too.
   */
  readonly signatures?: BundleSignatures;
  /** Runs the golden tests of a compiled source. */
  readonly runTests: (compiled: CompiledSource) => GoldenTestOutcome[];
  /**
   * The rules directories named as wholes: what the server refuses about a directory beyond its
   * files (an id defined twice across sources and bundles, the cache policy) is checked for these.
   */
  readonly directories?: readonly string[];
}

/**
 * Loads every file as the server would (the rulesets of a file's directory form its registry,
 * read once per directory) and runs the tests of each that compiles: one report per file, in
 * order, and the problems the server finds in each directory as a whole (an id defined twice
 * across sources and bundles, the cache policy) on the file they name.
 */
export function checkRuleFiles(files: readonly string[], options: RuleFileCheckOptions): FileReport[] {
  const loader = new RuleFileLoader(options.operators, (directory) => readRulesDirectory(directory));
  const reports = files.map((file) => {
    const loaded = loader.load(file);
    return withSignatureProblem(checkRuleFile(loaded, options), loaded, options.signatures);
  });
  return withDirectoryProblems(reports, directoryProblemsOf(options.directories ?? [], options.operators, loader));
}

/** A problem of a rules directory as a whole, and the file it goes on (the directory itself when it names none). */
export interface PlacedDirectoryProblem {
  readonly file: string;
  readonly problem: LoadProblem;
}

/**
 * What the server refuses about each directory as a whole (an id defined twice across sources and
 * bundles, the cache policy).
 */
export function directoryProblemsOf(
  directories: readonly string[],
  operators: CustomOperators,
  loader: RuleFileLoader,
): PlacedDirectoryProblem[] {
  return directories.flatMap((named) => {
    const directory = join(named, ".");
    return loadRulesDirectory(directory, { operators, loader }).directoryProblems.map((problem) => ({
      file: problem.file ?? directory,
      problem,
    }));
  });
}

/**
 * The reports with each directory problem on the file it names, a report added for a file not
 * among them. The reports given are left as they are: one that gets a problem is copied (the
 * language server keeps each file's report from one check to the next).
 */
export function withDirectoryProblems(
  reports: readonly FileReport[],
  problems: readonly PlacedDirectoryProblem[],
): FileReport[] {
  const placed = [...reports];
  for (const { file, problem } of problems) {
    const index = placed.findIndex((candidate) => resolve(candidate.file) === resolve(file));
    if (index === -1) placed.push({ file, problems: [problem], warnings: [], tests: [] });
    else placed[index] = { ...placed[index]!, problems: [...placed[index]!.problems, problem] };
  }
  return placed;
}

/** The report of one loaded file: its problems, or its warnings and the outcomes of its golden tests. */
export function checkRuleFile(
  loaded: LoadedRuleFile,
  options: Pick<RuleFileCheckOptions, "runTests" | "strict" | "withoutWarnings" | "portable">,
): FileReport {
  const file = loaded.file;
  if (!loaded.ok)
    return {
      file,
      ...(loaded.ruleset === undefined ? {} : { ruleset: loaded.ruleset }),
      problems: [...loaded.problems],
      warnings: [],
      tests: [],
    };
  const unregistered = unregisteredOperatorWarnings(loaded.ruleset, file);
  if (loaded.compiled === undefined)
    return withWarnings(
      { file, ruleset: loaded.ruleset.id, problems: [], warnings: [], tests: [] },
      unregistered,
      options,
    );
  const { compilation, directory } = loaded.compiled;
  const tests = options.runTests({
    source: compilation.source,
    resolved: compilation.compiled.ruleset,
    loaded: loaded.ruleset,
    bundle: compilation.compiled.bundle,
    documentSources: directory.documentSources,
  });
  // Tests that name what the ruleset does not know pass while testing nothing: problems, not warnings.
  const testProblems = goldenTestNameProblems(compilation.compiled.ruleset, directory.documentSources).map(
    (problem) => ({ ...problem, file: problem.file ?? file }),
  );
  const source = compilation.source;
  const portability =
    options.portable === true ? textExpressionWarnings(source.document, source.textExpressions ?? [], file) : [];
  return withWarnings(
    { file, ruleset: loaded.ruleset.id, problems: testProblems, warnings: [], tests },
    [...compilation.warnings, ...unregistered, ...portability],
    options,
  );
}

/** Under trusted keys, what the server would refuse of the file for its signature, first among its problems. */
function withSignatureProblem(
  report: FileReport,
  loaded: LoadedRuleFile,
  signatures: BundleSignatures | undefined,
): FileReport {
  if (signatures === undefined) return report;
  const file = loaded.file;
  const kind = ruleFileKind(basename(file)) === "bundle" ? "bundle" : "source";
  let problem = unsignedProblem(file, kind, signatures);
  const signed = verifiedSignature(file, signatures);
  if (problem === undefined && signed !== undefined && loaded.ok) {
    const { id, version, checksum } = loaded.ruleset;
    problem = signatureMismatch(file, signed, { id, version, checksum, digest: loaded.digest ?? "" });
  }
  if (problem !== undefined) report.problems.unshift(problem);
  return report;
}

/** The warnings of a file in its report: left out (`test`), as warnings, or as problems (`--strict`). */
function withWarnings(
  report: FileReport,
  warnings: readonly CheckWarning[],
  options: Pick<RuleFileCheckOptions, "strict" | "withoutWarnings">,
): FileReport {
  if (options.withoutWarnings === true) return report;
  (options.strict === true ? report.problems : report.warnings).push(...warnings);
  return report;
}

/**
 * A ruleset that needs custom operators the host does not register loads, as in the server (which
 * logs a warn line), but every evaluation that reaches one fails closed: a warning, as loud as the
 * server's.
 */
function unregisteredOperatorWarnings(ruleset: LoadedRuleset, file: string): CheckWarning[] {
  const missing = ruleset.missingOperators();
  if (missing.length === 0) return [];
  return [
    {
      code: "OPERATOR_NOT_REGISTERED",
      message: `the host registers no custom operator ${missing.join(", ")}: evaluations that reach one fail closed, as in the server (--operators test registers the conformance corpora's)`,
      file,
    },
  ];
}
