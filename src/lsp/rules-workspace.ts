import { sourceGoldenTests } from "../rule-files/source-golden-tests.ts";
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { TextDocuments } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { conformanceOperators } from "../engine/conformance-operators.ts";
import { customOperatorsFrom, type CustomOperators } from "../engine/expression/custom-operators.ts";
import { ruleFileKind } from "../rule-files/rule-file-kind.ts";
import { ruleFilesOf } from "../rule-files/rule-files-of-directory.ts";
import { readSourceFile, type SourceFile } from "../rule-files/source-documents.ts";
import type { FileReport } from "../cli/check-report/file-report.ts";
import { readRulesDirectory, type RulesDirectory, type UnsavedFiles } from "../cli/compile-source-file.ts";
import { checkRuleFiles } from "../cli/rule-file-checks.ts";
import { pathOfUri, uriOfPath } from "./file-uri.ts";

/** Larger sources are left out of the editor's checks (rule-server check still reads them). */
export const MAX_CHECKED_BYTES = 1024 * 1024;

/**
 * The rules directories of the files an editor has open, seen as `check` sees them but with the
 * editor's unsaved text standing for each open file. Every directory holding a ruleset or schema
 * the editor opened is a rules directory (a workspace may hold several).
 */
export class RulesWorkspace implements UnsavedFiles {
  readonly operators: CustomOperators = customOperatorsFrom(conformanceOperators);

  constructor(private readonly documents: TextDocuments<TextDocument>) {}

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
      if (file !== undefined && dirname(file) === directory && ruleFileKind(basename(file)) === "source" && !existsSync(file)) files.push(file);
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

  /** A rules directory read now, the open documents standing for their files. */
  directory(directory: string): RulesDirectory {
    return readRulesDirectory(resolve(directory), this);
  }

  /** `check` of every ruleset and bundle of a directory: what its files' diagnostics are made of. */
  check(directory: string): FileReport[] {
    let files: string[];
    try {
      const onDisk = ruleFilesOf(directory);
      files = [...new Set([...onDisk.source, ...this.sourcesIn(directory)])].sort().concat(onDisk.bundle);
    } catch {
      files = [...this.sourcesIn(directory)];
    }
    const tooLarge = files.filter((file) => this.leftOut(file));
    const reports = checkRuleFiles(files.filter((file) => !this.leftOut(file)), {
      operators: this.operators,
      unsaved: this,
      runTests: ({ source, loaded }) => sourceGoldenTests(loaded, source),
    });
    for (const file of tooLarge) {
      const megabytes = (this.sizeOf(file) / (1024 * 1024)).toFixed(1);
      reports.push({ file, problems: [{ code: "FILE_TOO_LARGE", message: `the file has ${megabytes} MiB; the language server checks rulesets up to 1 MiB as you type: run rule-server check on it`, file, line: 1, column: 1 }], warnings: [], tests: [] });
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
