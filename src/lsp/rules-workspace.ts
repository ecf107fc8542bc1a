import { sourceGoldenTests } from "../workspace/files/source-golden-tests.ts";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { TextDocuments } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { NO_CUSTOM_OPERATORS, type CustomOperators } from "../engine/expression/custom-operators.ts";
import { ruleFileKind } from "../workspace/files/rule-file-kind.ts";
import { ruleFilesOfEditedDirectory } from "../workspace/files/rule-files-of-directory.ts";
import { readSourceFile, type SourceFile } from "../workspace/files/source-documents.ts";
import type { FileReport } from "../workspace/file-report.ts";
import { readRulesDirectory, type RulesDirectory, type UnsavedFiles } from "../workspace/compile-source-file.ts";
import { checkRuleFiles } from "../workspace/rule-file-checks.ts";
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
  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    /** The custom operators the rules are checked with: those the host registers. */
    readonly operators: CustomOperators = NO_CUSTOM_OPERATORS,
  ) {}

  /** The editor's text of a file, when it has the file open. */
  text(file: string): string | undefined {
    const direct = this.documents.get(uriOfPath(file));
    if (direct !== undefined) return direct.getText();
    // A client may spell the URI otherwise (percent-encoding): then by path.
    for (const document of this.documents.all()) if (pathOfUri(document.uri) === file) return document.getText();
    return undefined;
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

  /** Each source as last read, with the text it was read from: unchanged files are not parsed again. */
  private readonly sources = new Map<string, { text: string; source: SourceFile }>();

  sourceFile(file: string): SourceFile {
    const text = this.textOrDisk(file);
    const cached = this.sources.get(file);
    if (cached !== undefined && text !== undefined && cached.text === text) return cached.source;
    const source = readSourceFile(file, () => {
      if (text === undefined) throw new Error("the file cannot be read");
      return text;
    });
    if (text === undefined) this.sources.delete(file);
    else this.sources.set(file, { text, source });
    return source;
  }

  /** A source too large to check as one types: what the YAML parser reads in about a second. */
  leftOut(file: string): boolean {
    return this.sizeOf(file) > MAX_CHECKED_BYTES;
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

  /** The directories of the open documents. */
  openDirectories(): string[] {
    const directories = new Set<string>();
    for (const document of this.documents.all()) {
      const file = pathOfUri(document.uri);
      if (file !== undefined) directories.add(dirname(file));
    }
    return [...directories];
  }

  /** Each directory as last read, and when (see directory). */
  private readonly directories = new Map<string, { read: RulesDirectory; at: number }>();

  /**
   * A rules directory, the open documents standing for their files. Requests share one reading
   * (the sources, the resolver and the entity schemas it has loaded) until an edit, a save, a
   * close or a change on disk says to read it again (forget), and for at most DIRECTORY_REUSE_MS,
   * for editors that do not report changes on disk.
   */
  directory(directory: string): RulesDirectory {
    const key = resolve(directory);
    const kept = this.directories.get(key);
    if (kept !== undefined && Date.now() - kept.at < DIRECTORY_REUSE_MS) return kept.read;
    const read = readRulesDirectory(key, this);
    this.directories.set(key, { read, at: Date.now() });
    return read;
  }

  /** Reads the directory again next time; without one, every directory (a file changed somewhere on disk). */
  forget(directory?: string): void {
    if (directory === undefined) this.directories.clear();
    else this.directories.delete(resolve(directory));
  }

  /** `check` of every ruleset and bundle of a directory: what its files' diagnostics are made of. */
  check(directory: string): FileReport[] {
    const onDisk = ruleFilesOfEditedDirectory(directory);
    const files = [...new Set([...onDisk.source, ...this.sourcesIn(directory)])].sort().concat(onDisk.bundle);
    const tooLarge = files.filter((file) => this.leftOut(file));
    const reports = checkRuleFiles(
      files.filter((file) => !tooLarge.includes(file)),
      {
        operators: this.operators,
        unsaved: this,
        readDirectory: (read) => this.directory(read),
        runTests: ({ source, loaded }) => sourceGoldenTests(loaded, source),
        directories: [directory],
      },
    );
    for (const file of tooLarge) {
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
