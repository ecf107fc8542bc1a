import { dirname } from "node:path";
import { NO_CUSTOM_OPERATORS, type CustomOperators } from "../engine/expression/custom-operators.ts";
import {
  CodeActionKind,
  createConnection,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type Position,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { completionsAt } from "./completion.ts";
import { definitionAt } from "./definition.ts";
import { DiagnosticsPublisher } from "./diagnostics-publisher.ts";
import { expressionFormActions } from "./expression-form-actions.ts";
import { requestPathAt } from "./expression-text-at.ts";
import { documentSymbols, workspaceSymbols } from "./document-symbols.ts";
import { pathOfUri } from "./file-uri.ts";
import { hoverAt } from "./hover.ts";
import { quickFixes } from "./quick-fixes.ts";
import { referencesAt } from "./references.ts";
import { rulesetContext, type RulesetContext } from "./ruleset-context.ts";
import { RulesWorkspace } from "./rules-workspace.ts";
import { type SourcePathAt, sourcePathAt } from "./source-path-at.ts";
import { evaluateTest, testRunSummary } from "./test-commands.ts";
import { EVALUATE_TEST_COMMAND, RUN_TESTS_COMMAND, testLenses } from "./test-lenses.ts";
import { offsetAt } from "./text-range.ts";

/**
 * `rule-server lsp`: the Language Server Protocol over two streams, built on vscode-languageserver.
 * Every answer comes from the compiler `check` runs, over the editor's unsaved text. A handler
 * that fails answers nothing and logs why: bad input never stops the server.
 */
/** `operators`: the custom operators the rules are checked with, those the host registers (none for the rule-server executable). */
export function startLanguageServer(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  operators: CustomOperators = NO_CUSTOM_OPERATORS,
): Connection {
  const connection = createConnection(input, output);
  const documents = new TextDocuments(TextDocument);
  const workspace = new RulesWorkspace(documents, operators);
  const publisher = new DiagnosticsPublisher(connection, workspace);

  connection.onInitialize(() => ({
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
      completionProvider: { triggerCharacters: [".", ":", " "] },
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      documentSymbolProvider: true,
      workspaceSymbolProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite] },
      codeLensProvider: { resolveProvider: false },
      executeCommandProvider: { commands: [RUN_TESTS_COMMAND, EVALUATE_TEST_COMMAND] },
    },
    serverInfo: { name: "rule-server" },
  }));

  const directoryOfUri = (uri: string): string | undefined => {
    const file = pathOfUri(uri);
    return file === undefined ? undefined : dirname(file);
  };
  documents.onDidOpen((event) =>
    safely(connection, () => withDirectory(event.document.uri, (directory) => publisher.checkNow(directory))),
  );
  // An edit changes no file on disk: the directory's disk is not looked at again for it.
  documents.onDidChangeContent((event) =>
    safely(connection, () =>
      withDirectory(event.document.uri, (directory) => publisher.scheduleCheck(directory), "edited"),
    ),
  );
  documents.onDidSave((event) =>
    safely(connection, () => withDirectory(event.document.uri, (directory) => publisher.checkNow(directory))),
  );
  // Closed, the file is what is on disk again.
  documents.onDidClose((event) =>
    safely(connection, () => withDirectory(event.document.uri, (directory) => publisher.scheduleCheck(directory))),
  );
  /** A document of the directory changed: what the workspace kept of it is read again. */
  const withDirectory = (uri: string, act: (directory: string) => void, change?: "edited"): void => {
    const directory = directoryOfUri(uri);
    if (directory === undefined) return;
    if (change === "edited") workspace.edited(directory);
    else workspace.forget(directory);
    act(directory);
  };
  // A file changed on disk (a schema saved, a ruleset checked out): a schema may be named from any
  // directory, so every directory is read again, and the open ones are checked again.
  connection.onDidChangeWatchedFiles(() =>
    safely(connection, () => {
      workspace.forget();
      for (const directory of workspace.openDirectories()) publisher.scheduleCheck(directory);
    }),
  );

  /** The context of the document a request names, and its text: open, else read from disk. */
  const requestContext = (uri: string): { context: RulesetContext; text: string } | undefined => {
    const file = pathOfUri(uri);
    const text = file === undefined ? undefined : (documents.get(uri)?.getText() ?? workspace.textOrDisk(file));
    if (file === undefined || text === undefined) return undefined;
    const context = rulesetContext(workspace, file);
    return context === undefined ? undefined : { context, text };
  };
  const textOf = (file: string): string | undefined => workspace.textOrDisk(file);
  /** What a request's cursor is on; inside an expression written as text, the node written there. */
  const pathAt = (request: { context: RulesetContext; text: string }, position: Position): SourcePathAt | undefined => {
    const offset = offsetAt(request.text, position);
    return requestPathAt(request.context.document, request.text, sourcePathAt(request.text, offset), offset);
  };

  connection.onCompletion((params) =>
    safely(connection, () => {
      const request = requestContext(params.textDocument.uri);
      return request === undefined ? [] : completionsAt(request.context, request.text, params.position);
    }, []),
  );
  connection.onHover((params) =>
    safely(
      connection,
      () => {
        const request = requestContext(params.textDocument.uri);
        const at = request === undefined ? undefined : pathAt(request, params.position);
        return request === undefined || at === undefined ? null : hoverAt(request.context, at);
      },
      null,
    ),
  );
  connection.onDefinition((params) =>
    safely(connection, () => {
      const request = requestContext(params.textDocument.uri);
      const at = request === undefined ? undefined : pathAt(request, params.position);
      return request === undefined || at === undefined ? [] : definitionAt(request.context, at, textOf);
    }, []),
  );
  connection.onReferences((params) =>
    safely(connection, () => {
      const request = requestContext(params.textDocument.uri);
      const at = request === undefined ? undefined : pathAt(request, params.position);
      return request === undefined || at === undefined ? [] : referencesAt(request.context, at, textOf);
    }, []),
  );
  connection.onDocumentSymbol((params) =>
    safely(connection, () => {
      const request = requestContext(params.textDocument.uri);
      return request === undefined
        ? []
        : documentSymbols(request.context.source.document, request.context.source.locate, request.text);
    }, []),
  );
  connection.onWorkspaceSymbol((params) =>
    safely(
      connection,
      () =>
        workspace
          .openDirectories()
          .flatMap((directory) => workspaceSymbols(workspace.directory(directory).sources, params.query, textOf)),
      [],
    ),
  );
  connection.onCodeAction((params) =>
    safely(connection, () => {
      const text = documents.get(params.textDocument.uri)?.getText();
      if (text === undefined) return [];
      const fixes = quickFixes(params.textDocument.uri, text, params.context.diagnostics);
      // An editor asking only for some kinds (quick fixes on a diagnostic) is not offered rewrites.
      const only = params.context.only;
      const rewrites =
        only === undefined || only.some((kind) => CodeActionKind.RefactorRewrite.startsWith(kind))
          ? expressionFormActions(params.textDocument.uri, text, params.range)
          : [];
      return [...fixes, ...rewrites];
    }, []),
  );
  connection.onCodeLens((params) =>
    safely(connection, () => {
      const request = requestContext(params.textDocument.uri);
      return request === undefined
        ? []
        : testLenses(
            params.textDocument.uri,
            request.context.source.document,
            request.context.source.locate,
            request.text,
          );
    }, []),
  );
  connection.onExecuteCommand((params) =>
    safely(
      connection,
      () => {
        const [uri, index, explain] = params.arguments ?? [];
        const file = typeof uri === "string" ? pathOfUri(uri) : undefined;
        if (file === undefined) return null;
        if (params.command === RUN_TESTS_COMMAND) {
          const summary = testRunSummary(file, publisher.checkNow(dirname(file)));
          void connection.window.showInformationMessage(`${summary.passed} test(s) passed, ${summary.failed} failed`);
          return summary;
        }
        if (params.command === EVALUATE_TEST_COMMAND && typeof index === "number") {
          const evaluated = evaluateTest(workspace, file, index, explain);
          if ("error" in evaluated) void connection.window.showErrorMessage(evaluated.error);
          else
            void connection.window.showInformationMessage(
              `${evaluated.test}: ${evaluated.decision}, ${evaluated.result.findings.length} finding(s)`,
            );
          return evaluated;
        }
        return null;
      },
      null,
    ),
  );
  connection.onShutdown(() => publisher.dispose());

  documents.listen(connection);
  connection.listen();
  return connection;
}

/** Runs a handler; a failure is logged and answered with `fallback`. */
function safely<T>(connection: Connection, handler: () => T, fallback?: T): T {
  try {
    return handler();
  } catch (error) {
    connection.console.error(
      `rule-server lsp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return fallback as T;
  }
}
