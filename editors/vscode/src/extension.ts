/**
 * The VS Code extension: a language client for `rule-server lsp`. VS Code activates it in a
 * workspace holding rulesets and whenever a YAML or JSON file opens; the server itself starts only
 * once there is a ruleset to serve (one in the workspace, or one opened), so that opening a JSON
 * file elsewhere neither starts a process nor complains about a missing rule-server.
 */
import * as vscode from "vscode";
import { LanguageServer } from "./language-server.ts";
import { isRulesetFile, RULESET_GLOB, SEARCH_EXCLUDE, WATCHED_GLOB } from "./served-documents.ts";
import { OUTPUT_NAME } from "./start-problems.ts";

let server: LanguageServer | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel(OUTPUT_NAME, { log: true });
  const watcher = vscode.workspace.createFileSystemWatcher(WATCHED_GLOB);
  const languageServer = new LanguageServer(output, watcher);
  server = languageServer;
  let wanted = false;
  const startOnce = (): void => {
    if (wanted) return;
    wanted = true;
    void languageServer.restart();
  };
  context.subscriptions.push(
    output,
    watcher,
    vscode.commands.registerCommand("ruleServer.restart", () => {
      wanted = true;
      return languageServer.restart();
    }),
    // A new executable or new arguments need a new process; the trace setting the client follows live.
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (wanted && (event.affectsConfiguration("ruleServer.path") || event.affectsConfiguration("ruleServer.args")))
        void languageServer.restart();
    }),
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (document.uri.scheme === "file" && isRulesetFile(document.fileName)) startOnce();
    }),
  );
  if (
    vscode.workspace.textDocuments.some(
      (document) => document.uri.scheme === "file" && isRulesetFile(document.fileName),
    )
  )
    startOnce();
  else if ((await vscode.workspace.findFiles(RULESET_GLOB, SEARCH_EXCLUDE, 1)).length > 0) startOnce();
}

/** VS Code waits for the returned promise: the server is asked to shut down, not left running. */
export function deactivate(): Promise<void> | undefined {
  const stopping = server?.stop();
  server = undefined;
  return stopping;
}
