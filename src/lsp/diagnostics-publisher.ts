import type { Connection, Diagnostic } from "vscode-languageserver/node";
import type { FileReport } from "../workspace/file-report.ts";
import { uriOfPath } from "./file-uri.ts";
import { diagnosticsByFile } from "./problem-diagnostics.ts";
import type { RulesWorkspace } from "./rules-workspace.ts";

/** How long edits must pause before a directory is checked again: well inside the 100 ms the author waits. */
export const CHANGE_DELAY_MS = 20;

/**
 * Checks rules directories and publishes what `check` finds, file by file. A change is checked
 * once typing pauses; opening and saving are checked at once. The check covers every file of the
 * directory (rules-workspace.ts checks again only what changed), so the children of a changed
 * parent and the rulesets naming a changed schema get their diagnostics too. A file whose problems
 * are gone gets an empty list. A file is sent its diagnostics when they changed, and an open one at
 * every check: at a thousand rulesets, a thousand unchanged lists are not sent at every keystroke.
 */
export class DiagnosticsPublisher {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Per directory, the files it last published diagnostics for. */
  private readonly published = new Map<string, Set<string>>();
  /** Per file, the diagnostics last sent for it, as JSON. */
  private readonly sent = new Map<string, string>();

  constructor(
    private readonly connection: Connection,
    private readonly workspace: RulesWorkspace,
  ) {}

  /** Checks after the pause that ends a burst of changes. */
  scheduleCheck(directory: string): void {
    clearTimeout(this.timers.get(directory));
    this.timers.set(
      directory,
      setTimeout(() => this.checkNow(directory), CHANGE_DELAY_MS),
    );
  }

  checkNow(directory: string): FileReport[] {
    clearTimeout(this.timers.get(directory));
    this.timers.delete(directory);
    let reports: FileReport[];
    try {
      reports = this.workspace.check(directory);
    } catch (error) {
      // A check that fails is a bug of ours: said in the log, never a crash of the editor's server.
      this.connection.console.error(
        `checking ${directory} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return [];
    }
    const byFile = diagnosticsByFile(reports, (file) => this.workspace.textOrDisk(file));
    const before = this.published.get(directory) ?? new Set<string>();
    for (const file of before) if (!byFile.has(file)) byFile.set(file, []);
    const open = new Set(this.workspace.openFiles());
    for (const [file, diagnostics] of byFile) {
      const json = JSON.stringify(diagnostics);
      if (this.sent.get(file) === json && !open.has(file)) continue;
      this.sent.set(file, json);
      this.publish(file, diagnostics);
    }
    this.published.set(
      directory,
      new Set([...byFile].filter(([, diagnostics]) => diagnostics.length > 0).map(([file]) => file)),
    );
    return reports;
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private publish(file: string, diagnostics: Diagnostic[]): void {
    void this.connection.sendDiagnostics({ uri: uriOfPath(file), diagnostics });
  }
}
