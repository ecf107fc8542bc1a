import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { TextDocuments } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { NO_CUSTOM_OPERATORS, type CustomOperators } from "../engine/expression/custom-operators.ts";
import { ruleFileKind } from "../workspace/files/rule-file-kind.ts";
import { readSourceFile, type SourceFile } from "../workspace/files/source-documents.ts";
import type { FileReport } from "../workspace/file-report.ts";
import { readRulesDirectory, type RulesDirectory, type UnsavedFiles } from "../workspace/compile-source-file.ts";
import { DirectoryChecks } from "./directory-checks.ts";
import { type CheckedFiles, checkedFiles, type DirectoryScan, scanDirectory } from "./directory-scan.ts";
import { pathOfUri, uriOfPath } from "./file-uri.ts";

/** Larger sources are left out of the editor's checks (rule-server check still reads them). */
export const MAX_CHECKED_BYTES = 1024 * 1024;
/** How long requests may share a directory's reading when nothing said it changed. */
const DIRECTORY_REUSE_MS = 2000;

/**
 * The rules directories of the files an editor has open, seen as `check` sees them but with the
 * editor's unsaved text standing for each open file. Every directory holding a ruleset or schema
 * the editor opened is a rules directory (a workspace may hold several).
 */
export class RulesWorkspace implements UnsavedFiles {
  /** Each directory's last check, which the next one starts from. */
  readonly checks = new DirectoryChecks(this);

  constructor(
    private readonly documents: Pick<TextDocuments<TextDocument>, "get" | "all">,
    /** The custom operators the rules are checked with: those the host registers. */
    readonly operators: CustomOperators = NO_CUSTOM_OPERATORS,
  ) {}

  /** The editor's text of a file, when it has the file open. */
  text(file: string): string | undefined {
    if (this.openTexts !== undefined) return this.openTexts.get(file);
    const direct = this.documents.get(uriOfPath(file));
    if (direct !== undefined) return direct.getText();
    // A client may spell the URI otherwise (percent-encoding): then by path.
    for (const document of this.documents.all()) if (pathOfUri(document.uri) === file) return document.getText();
    return undefined;
  }

  /** While a directory is read, the open documents' texts by path: text is asked of every file. */
  private openTexts: ReadonlyMap<string, string> | undefined;

  private textsByPath(): Map<string, string> {
    const texts = new Map<string, string>();
    for (const document of this.documents.all()) {
      const file = pathOfUri(document.uri);
      // As text finds it: the document of the URI the path makes, else the first of that path.
      if (file !== undefined && (!texts.has(file) || document.uri === uriOfPath(file)))
        texts.set(file, document.getText());
    }
    return texts;
  }

  /** The editor's text, else what is on disk. */
  textOrDisk(file: string): string | undefined {
    return this.text(file) ?? readIfThere(file);
  }

  sourcesIn(directory: string): readonly string[] {
    const files: string[] = [];
    for (const document of this.documents.all()) {
      const file = pathOfUri(document.uri);
      if (
        file !== undefined &&
        dirname(file) === directory &&
        ruleFileKind(basename(file)) === "source" &&
        !existsSync(file)
      )
        files.push(file);
    }
    return files;
  }

  /**
   * Each source as last read, with the text it was read from and, read from disk, the file's stamp
   * then: unchanged files are not parsed again, and a file on disk whose size and modification time
   * are unchanged is not read again either (a thousand rulesets are 20 MB of text).
   */
  private readonly sources = new Map<string, { text: string; source: SourceFile; diskStamp?: string }>();

  sourceFile(file: string): SourceFile {
    const unsaved = this.text(file);
    const cached = this.sources.get(file);
    // The scan stamped it before it is read: a file written meanwhile is read again next time.
    const diskStamp = unsaved === undefined ? this.scanning?.scan.sourceStamps.get(file) : undefined;
    if (diskStamp !== undefined && cached?.diskStamp === diskStamp) return cached.source;
    const text = unsaved ?? readIfThere(file);
    if (cached !== undefined && text !== undefined && cached.text === text) {
      this.sources.set(file, { ...cached, diskStamp });
      return cached.source;
    }
    const source = readSourceFile(file, () => {
      if (text === undefined) throw new Error("the file cannot be read");
      return text;
    });
    if (text === undefined) this.sources.delete(file);
    else this.sources.set(file, { text, source, diskStamp });
    return source;
  }

  private sizeOf(file: string): number {
    const text = this.text(file);
    if (text !== undefined) return text.length;
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  }

  /** The files of the open documents. */
  openFiles(): string[] {
    return this.documents.all().flatMap((document) => pathOfUri(document.uri) ?? []);
  }

  /** The directories of the open documents. */
  openDirectories(): string[] {
    return [...new Set(this.openFiles().map((file) => dirname(file)))];
  }

  /** Each directory as last read, with the files read, and when (see directory). */
  private readonly directories = new Map<string, { read: RulesDirectory; files: CheckedFiles; at: number }>();
  /** Each directory as last scanned on disk, and when (see reading). */
  private readonly scans = new Map<string, { scan: DirectoryScan; at: number }>();
  /** The directory being read, with its scan and the files read: the sources are listed and stamped by them. */
  private scanning: { directory: string; scan: DirectoryScan; files: CheckedFiles } | undefined;

  /**
   * A rules directory, the open documents standing for their files. Requests share one reading
   * (the sources, the resolver and the entity schemas it has loaded) until an edit, a save, a
   * close or a change on disk says to read it again (forget, edited), and for at most
   * DIRECTORY_REUSE_MS, for editors that do not report changes on disk.
   */
  directory(directory: string): RulesDirectory {
    return this.reading(directory).read;
  }

  /**
   * The directory read, and the files it was read from. Its disk is looked at again when something
   * said it changed (forget) and at most DIRECTORY_REUSE_MS after the last look: an edit in the
   * editor changes no file on disk, and at a thousand rulesets a look is 1,000 stats. A source whose
   * stamp is unchanged is not read again, nor parsed.
   */
  private reading(directory: string): { read: RulesDirectory; files: CheckedFiles } {
    const key = resolve(directory);
    const kept = this.directories.get(key);
    if (kept !== undefined && Date.now() - kept.at < DIRECTORY_REUSE_MS) return kept;
    let scanned = this.scans.get(key);
    if (scanned === undefined || Date.now() - scanned.at >= DIRECTORY_REUSE_MS) {
      scanned = { scan: scanDirectory(key), at: Date.now() };
      this.scans.set(key, scanned);
    }
    this.openTexts = this.textsByPath();
    try {
      const files = checkedFiles(key, scanned.scan, this, MAX_CHECKED_BYTES);
      this.scanning = { directory: key, scan: scanned.scan, files };
      const read = readRulesDirectory(key, this);
      this.directories.set(key, { read, files, at: Date.now() });
      return { read, files };
    } finally {
      this.openTexts = undefined;
      this.scanning = undefined;
    }
  }

  sourcesOf(directory: string): readonly string[] {
    const key = resolve(directory);
    if (this.scanning?.directory === key) return this.scanning.files.sources;
    return checkedFiles(key, scanDirectory(key), this, MAX_CHECKED_BYTES).sources;
  }

  /**
   * Reads the directory again next time, and looks at its disk again; without one, every directory
   * (a file changed somewhere on disk).
   */
  forget(directory?: string): void {
    if (directory === undefined) {
      this.directories.clear();
      this.scans.clear();
    } else {
      this.directories.delete(resolve(directory));
      this.scans.delete(resolve(directory));
    }
  }

  /** An open document of the directory was edited: it is read again next time, its disk not looked at again. */
  edited(directory: string): void {
    this.directories.delete(resolve(directory));
  }

  /**
   * `check` of every ruleset and bundle of a directory, read afresh: what its files' diagnostics
   * are made of. Made from the directory's last check: only what changed since is checked again
   * (directory-checks.ts).
   */
  check(directory: string): FileReport[] {
    this.edited(directory);
    const { read, files } = this.reading(directory);
    const reports = this.checks.check(directory, read, files);
    for (const file of files.tooLarge) {
      const megabytes = (this.sizeOf(file) / (1024 * 1024)).toFixed(1);
      reports.push({
        file,
        problems: [
          {
            code: "FILE_TOO_LARGE",
            message: `the file has ${megabytes} MiB; the language server checks rulesets up to 1 MiB as you type: run rule-server check on it`,
            file,
            line: 1,
            column: 1,
          },
        ],
        warnings: [],
        tests: [],
      });
    }
    return reports;
  }
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
