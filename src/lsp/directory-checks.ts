import { isAbsolute, resolve } from "node:path";
import type { CustomOperators } from "../engine/expression/custom-operators.ts";
import type { RulesDirectory } from "../workspace/compile-source-file.ts";
import type { FileReport } from "../workspace/file-report.ts";
import type { SourceFile } from "../workspace/files/source-documents.ts";
import { sourceGoldenTests } from "../workspace/files/source-golden-tests.ts";
import {
  checkRuleFile,
  directoryProblemsOf,
  type PlacedDirectoryProblem,
  withDirectoryProblems,
} from "../workspace/rule-file-checks.ts";
import type { LoadedRuleFile } from "../workspace/rule-file-loader.ts";
import { KeptRuleFileLoader, keptLoad } from "./kept-rule-file-loader.ts";
import { sourcesToRecheck } from "./sources-to-recheck.ts";
import type { CheckedFiles } from "./directory-scan.ts";
import { sameStamps, supportFileStamp, supportStamps, type SupportStamps } from "./support-files-stamp.ts";

/** What DirectoryChecks asks of the language server's workspace. */
export interface CheckedWorkspace {
  readonly operators: CustomOperators;
  /** The editor's unsaved text of a file, when it has the file open. */
  text(file: string): string | undefined;
}

/** What the last check of a directory read and found: where the next one starts. */
interface LastCheck {
  /** The sources read, by path: a source is the same object as long as its text is. */
  readonly sources: ReadonlyMap<string, SourceFile>;
  /** What the check read besides the sources (support-files-stamp.ts). */
  readonly stamps: SupportStamps;
  /** Each file's own report, before the directory's problems were placed on it. */
  readonly reports: ReadonlyMap<string, FileReport>;
  /** How each file loaded (keptLoad), for the directory's problems: which ids it claims. */
  readonly loaded: ReadonlyMap<string, LoadedRuleFile>;
  /** The directory's problems, and what they were worked out from (claimsOf). */
  readonly directoryProblems: readonly PlacedDirectoryProblem[];
  readonly claims: string;
}

/**
 * `check` of the rule files of each rules directory the editor has open, made again after every
 * edit from what the last check of the directory found: a file keeps its report unless the edit can
 * change it. The first check of a directory is a full one, and so is every check after a file other
 * than a ruleset source changed (an entity schema, a bundle, the cache policy: any ruleset may read
 * it). Otherwise only the sources sourcesToRecheck names are compiled and their golden tests run
 * again. What the directory as a whole is refused for (an id defined twice, the cache policy) is
 * worked out from every file again whenever the ids the files claim may have changed. The reports
 * are the ones a full check would give.
 */
export class DirectoryChecks {
  private readonly last = new Map<string, LastCheck>();
  private readonly recheckedLast = new Map<string, readonly string[]>();

  constructor(private readonly workspace: CheckedWorkspace) {}

  /**
   * The reports of the directory's rule files (its sources, then its bundles, none too large) and
   * of the directory as a whole, from `read`, read from `checked`.
   */
  check(directory: string, read: RulesDirectory, checked: CheckedFiles): FileReport[] {
    const key = resolve(directory);
    const last = this.last.get(key);
    const files = [...checked.sources, ...checked.bundles];
    const unsaved = (file: string): string | undefined => this.workspace.text(file);
    const stamps = supportStamps(checked.others, last?.stamps.keys() ?? [], unsaved);
    const sources = new Map(read.sources.map((source) => [source.file, source]));
    // Undefined: every file (the first check, or a file besides the sources changed).
    const recheck =
      last === undefined || !sameStamps(stamps, last.stamps) ? undefined : sourcesToRecheck(last.sources, read.sources);
    const keptReport = (file: string): FileReport | undefined =>
      recheck === undefined || recheck.has(file) ? undefined : last?.reports.get(file);

    const kept = new Map<string, LoadedRuleFile>();
    for (const file of files) {
      const loaded = keptReport(file) === undefined ? undefined : last?.loaded.get(file);
      if (loaded !== undefined) kept.set(file, loaded);
    }
    const loader = new KeptRuleFileLoader(
      this.workspace.operators,
      () => recordingSchemas(directory, read, stamps, unsaved),
      kept,
    );
    const reports = new Map<string, FileReport>();
    const rechecked: string[] = [];
    for (const file of files) {
      let report = keptReport(file);
      if (report === undefined) {
        rechecked.push(file);
        report = checkRuleFile(loader.load(file), {
          runTests: ({ source, loaded }) => sourceGoldenTests(loaded, source),
        });
      }
      reports.set(file, report);
    }
    const loaded = new Map(files.map((file) => [file, kept.get(file) ?? keptLoad(loader.load(file))]));

    // The directory's problems name files by the ids they claim, at the line of the id.
    const claims = claimsOf(read.sources);
    const directoryProblems =
      recheck !== undefined && last?.claims === claims && last.directoryProblems.every(({ file }) => !recheck.has(file))
        ? last.directoryProblems
        : directoryProblemsOf([directory], this.workspace.operators, loader);
    this.last.set(key, { sources, stamps, reports, loaded, directoryProblems, claims });
    this.recheckedLast.set(key, rechecked);
    return withDirectoryProblems([...reports.values()], directoryProblems);
  }

  /** The files whose reports the last check of `directory` made afresh (compiled, their golden tests run). */
  recheckedAtLastCheck(directory: string): readonly string[] {
    return this.recheckedLast.get(resolve(directory)) ?? [];
  }
}

/**
 * The directory as read, its entity schema files stamped as they are first read: one that changes
 * after is seen at the next check.
 */
function recordingSchemas(
  directory: string,
  read: RulesDirectory,
  stamps: Map<string, string>,
  unsaved: (file: string) => string | undefined,
): RulesDirectory {
  return {
    sources: read.sources,
    sourceOf: (file) => read.sourceOf(file),
    sourceWithId: (id) => read.sourceWithId(id),
    resolver: read.resolver,
    documentSources: read.documentSources,
    loadSchema: (ref) => {
      // As entity-schema-files.ts resolves a reference; one it refuses reads nothing.
      if (ref !== "" && !isAbsolute(ref)) {
        const file = resolve(directory, ref);
        if (!stamps.has(file)) stamps.set(file, supportFileStamp(file, unsaved));
      }
      return read.loadSchema(ref);
    },
  };
}

/**
 * What the directory's problems are worked out from besides the bundles and the cache policy (both
 * stamped): the sources in order, each with the id it claims when it reads.
 */
function claimsOf(sources: readonly SourceFile[]): string {
  return sources
    .map((source) => `${source.file}\0${source.id ?? ""}\0${source.document !== undefined}\0${source.problems.length}`)
    .join("\n");
}
