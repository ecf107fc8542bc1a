import { basename, dirname, resolve } from "node:path";
import type { GoldenTestOutcome } from "../compiler/golden/run-golden-tests.ts";
import type { ResolvedRuleset } from "../compiler/resolve/resolve-ruleset.ts";
import { LoadedRuleset } from "../engine/bundle/loaded-ruleset.ts";
import type { CustomOperators } from "../engine/expression/custom-operators.ts";
import type { JsonObject } from "../engine/value/json-value.ts";
import { readBundleFile } from "../rule-files/read-bundle-file.ts";
import { ruleFileKind } from "../rule-files/rule-file-kind.ts";
import { ruleFilesOf } from "../rule-files/rule-files-of-directory.ts";
import { isDirectory, repeatedIdProblems, type SourceFile } from "../rule-files/source-documents.ts";
import type { DocumentSources } from "../compiler/problems/problem-place.ts";
import type { FileReport } from "./check-report/file-report.ts";
import { compileSourceFile, readRulesDirectory, type RulesDirectory, type UnsavedFiles } from "./compile-source-file.ts";

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
  /** Unsaved texts that stand for files (the language server's open documents). */
  readonly unsaved?: UnsavedFiles;
  /** Reads a rules directory (the language server's, which keeps it between requests); readRulesDirectory otherwise. */
  readonly readDirectory?: (directory: string) => RulesDirectory;
  /** Runs the golden tests of a compiled source. */
  readonly runTests: (compiled: CompiledSource) => GoldenTestOutcome[];
}

/**
 * Loads every file as the server would (the rulesets of a file's directory form its registry,
 * read once per directory) and runs the tests of each that compiles: one report per file, in
 * order, with the repeated-id problems of each directory on the file that repeats.
 */
export function checkRuleFiles(files: readonly string[], options: RuleFileCheckOptions): FileReport[] {
  const directories = new Map<string, RulesDirectory>();
  const directoryOf = (file: string): RulesDirectory => {
    const directory = dirname(file);
    let read = directories.get(directory);
    if (!read) directories.set(directory, (read = options.readDirectory?.(directory) ?? readRulesDirectory(directory, options.unsaved)));
    return read;
  };
  const reports = files.map((file) => checkFile(file, directoryOf, options));
  for (const directory of directories.values()) {
    for (const problem of repeatedIdProblems(directory.sources)) {
      const report = reports.find((candidate) => candidate.file === problem.file);
      report?.problems.push(problem);
    }
  }
  return reports;
}

function checkFile(file: string, directoryOf: (file: string) => RulesDirectory, options: RuleFileCheckOptions): FileReport {
  if (ruleFileKind(basename(file)) === "bundle") {
    const read = readBundleFile(file);
    return read.ok ? { file, ruleset: read.ruleset.id, problems: [], warnings: [], tests: [] } : { file, problems: read.problems, warnings: [], tests: [] };
  }
  const compilation = compileSourceFile(file, directoryOf(file));
  if (!compilation.ok) return { file, ruleset: compilation.source.id, problems: compilation.problems, warnings: [], tests: [] };
  const loaded = LoadedRuleset.fromBundle(compilation.compiled.bundle, options.operators);
  const tests = options.runTests({ source: compilation.source, resolved: compilation.compiled.ruleset, loaded, bundle: compilation.compiled.bundle, documentSources: directoryOf(file).documentSources });
  const warnings = options.withoutWarnings === true ? [] : [...compilation.warnings];
  return options.strict === true ? { file, ruleset: loaded.id, problems: warnings, warnings: [], tests } : { file, ruleset: loaded.id, problems: [], warnings, tests };
}
