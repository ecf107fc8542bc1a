import { ruleFileKind } from "../workspace/files/rule-file-kind.ts";
import { editedDirectoryEntries } from "../workspace/files/rule-files-of-directory.ts";

/**
 * A file written this recently may be written again within the same tick of the file system's
 * clock, keeping its size and modification time: its stamp is not trusted (it is read again).
 */
const RECENT_WRITE_MS = 2000;

/**
 * A rules directory's entries on disk (editedDirectoryEntries), each looked at once: at a thousand
 * rulesets every look counts.
 */
export interface DirectoryScan {
  /** The ruleset sources on disk, in file order, each with its size. */
  readonly sources: ReadonlyMap<string, number>;
  readonly bundles: ReadonlyMap<string, number>;
  /**
   * Each source by its size and modification time, unless written too recently to tell: a source
   * whose stamp is unchanged is not read again.
   */
  readonly sourceStamps: ReadonlyMap<string, string>;
  /** The other files and folders, what a check may read besides the rule files. */
  readonly others: readonly string[];
}

export function scanDirectory(directory: string): DirectoryScan {
  const now = Date.now();
  const sources = new Map<string, number>();
  const bundles = new Map<string, number>();
  const sourceStamps = new Map<string, string>();
  const others: string[] = [];
  for (const { name, path, stats } of editedDirectoryEntries(directory)) {
    const kind = stats.isFile() ? ruleFileKind(name) : "other";
    if (kind === "source") {
      sources.set(path, stats.size);
      if (now - stats.mtimeMs >= RECENT_WRITE_MS) sourceStamps.set(path, `${stats.size} ${stats.mtimeMs}`);
    } else {
      others.push(path);
      if (kind === "bundle") bundles.set(path, stats.size);
    }
  }
  return { sources, bundles, sourceStamps, others };
}

/** The files a check of a directory reads, the editor's open documents standing for theirs. */
export interface CheckedFiles {
  /** The ruleset sources on disk and those only the editor has, in file order, none too large. */
  readonly sources: readonly string[];
  readonly bundles: readonly string[];
  /** Sources, then bundles, left out: too large to check as one types. */
  readonly tooLarge: readonly string[];
  /** What a check may read besides the rule files. */
  readonly others: readonly string[];
}

/** What the listing asks of the editor. */
export interface EditedFiles {
  /** The editor's text of a file it has open. */
  text(file: string): string | undefined;
  /** The unsaved ruleset sources of a directory that are not on disk yet. */
  sourcesIn(directory: string): readonly string[];
}

/** The files of `scan` a check reads now. `maxBytes`: the largest rule file checked. */
export function checkedFiles(
  directory: string,
  scan: DirectoryScan,
  editor: EditedFiles,
  maxBytes: number,
): CheckedFiles {
  const sources = new Map(scan.sources);
  for (const file of editor.sourcesIn(directory)) if (!sources.has(file)) sources.set(file, 0);
  const tooLarge: string[] = [];
  // The editor's text stands for a file it has open, its size too.
  const checked = (sizes: ReadonlyMap<string, number>): string[] =>
    [...sizes.keys()].sort().filter((file) => {
      const large = (editor.text(file)?.length ?? sizes.get(file)!) > maxBytes;
      if (large) tooLarge.push(file);
      return !large;
    });
  return { sources: checked(sources), bundles: checked(scan.bundles), tooLarge, others: scan.others };
}
