/**
 * One `rule-server lsp` process at a time, behind a language client: started from the current
 * settings, stopped, restarted. Starts and stops run one after another, so that settings changed
 * twice in a row never leave two servers running.
 */
import type { ChildProcess } from "node:child_process";
import { homedir } from "node:os";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  type ErrorHandler,
  type LanguageClientOptions,
  type MessageTransports,
} from "vscode-languageclient/node";
import { commandLine, DEFAULT_SERVER_PATH, resolveServerCommand, type ServerSettings } from "./server-command.ts";
import { DOCUMENT_SELECTOR } from "./served-documents.ts";
import {
  executableProblemMessage,
  OPEN_SETTINGS,
  OUTPUT_NAME,
  reasonOf,
  SHOW_OUTPUT,
  startFailedMessage,
} from "./start-problems.ts";

/** The client's id is also the settings prefix: the client itself reads `ruleServer.trace.server`. */
const CLIENT_ID = "ruleServer";

/**
 * A language client that keeps quiet while it starts: a server that exits at once (an older
 * rule-server without `lsp`, a wrong argument) would otherwise raise a notification for each
 * failed write, the initialize error and each of the client's restarts. Those are still logged to
 * the output; the extension reports the failure once, naming the settings to change.
 */
class RuleServerClient extends LanguageClient {
  starting = true;
  /** The server process, kept here since the client forgets it when a start fails. */
  process: ChildProcess | undefined;
  /** How the process ended, in words, once it has. */
  private ending: string | undefined;

  override error(message: string, data?: unknown, showNotification?: boolean | "force"): void {
    super.error(message, data, this.starting ? false : showNotification);
  }

  protected override async createMessageTransports(encoding: string): Promise<MessageTransports> {
    const transports = await super.createMessageTransports(encoding);
    this.process = this.serverProcess;
    this.process?.once("exit", (code, signal) => {
      this.ending = code !== null ? `it exited with status ${code}` : `it was ended by ${signal}`;
    });
    return transports;
  }

  /** Why a start failed: how the process ended (waiting a moment for it), else the client's error. */
  async failure(error: unknown): Promise<string> {
    for (
      let waited = 0;
      this.ending === undefined && this.process !== undefined && this.process.exitCode === null && waited < 1000;
      waited += 50
    ) {
      await new Promise((done) => setTimeout(done, 50));
    }
    return this.ending ?? reasonOf(error);
  }
}

/** While starting: give up at once, without restarts. Once running: the client's usual restarts after a crash. */
function startAwareErrorHandler(client: () => RuleServerClient): ErrorHandler {
  let running: ErrorHandler | undefined;
  const usual = (): ErrorHandler => (running ??= client().createDefaultErrorHandler());
  return {
    error: (error, message, count) =>
      client().starting ? { action: ErrorAction.Shutdown, handled: true } : usual().error(error, message, count),
    closed: () => (client().starting ? { action: CloseAction.DoNotRestart, handled: true } : usual().closed()),
  };
}

export class LanguageServer {
  private client: RuleServerClient | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly output: vscode.LogOutputChannel,
    /** One watcher for the extension's life: the client stops listening to it on stop but never disposes it. */
    private readonly watcher: vscode.FileSystemWatcher,
  ) {}

  /** Stops the running server, if any, and starts one from the settings as they are now. */
  restart(): Promise<void> {
    return this.enqueue(async () => {
      await this.stopClient();
      await this.startClient();
    });
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.stopClient());
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const done = this.queue.then(task);
    this.queue = done.catch((error: unknown) => this.output.error(`language server: ${reasonOf(error)}`));
    return this.queue;
  }

  private async startClient(): Promise<void> {
    const resolved = resolveServerCommand(readSettings(), {
      PATH: process.env.PATH,
      PATHEXT: process.env.PATHEXT,
      home: homedir(),
      platform: process.platform,
      workspaceRoot: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    });
    if (!resolved.ok) {
      const message = executableProblemMessage(resolved.problem);
      this.output.error(message);
      void this.notify(message, "ruleServer.path");
      return;
    }
    const { server } = resolved;
    this.output.info(`starting ${commandLine(server)}`);
    const options: LanguageClientOptions = {
      documentSelector: DOCUMENT_SELECTOR,
      // Shared across restarts, so that what an earlier server printed stays readable.
      outputChannel: this.output,
      synchronize: { fileEvents: this.watcher },
      errorHandler: startAwareErrorHandler(() => client),
      // No second attempt, and no notification of its own: the failure is reported below.
      initializationFailedHandler: () => false,
    };
    // No `transport`: stdio is then used without the `--stdio` argument the client would otherwise append.
    const client: RuleServerClient = new RuleServerClient(
      CLIENT_ID,
      OUTPUT_NAME,
      { command: server.command, args: [...server.args], options: server.cwd === undefined ? {} : { cwd: server.cwd } },
      options,
    );
    this.client = client;
    try {
      await client.start();
      client.starting = false;
    } catch (error) {
      this.client = undefined;
      const reason = await client.failure(error);
      // A client that failed to start cannot be stopped; its process may still be running.
      if (client.process !== undefined && client.process.exitCode === null) client.process.kill();
      const message = startFailedMessage(commandLine(server), reason);
      this.output.error(message);
      void this.notify(message, "ruleServer.");
    }
  }

  private async stopClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) return;
    try {
      await client.dispose();
    } catch (error) {
      // Between the client's own restarts after a crash it refuses to stop: end the process instead.
      this.output.error(`stopping the language server: ${reasonOf(error)}`);
      if (client.process !== undefined && client.process.exitCode === null) client.process.kill();
    }
  }

  /** An error notification whose buttons open the settings (filtered to `settingsQuery`) or the output. */
  private async notify(message: string, settingsQuery: string): Promise<void> {
    const chosen = await vscode.window.showErrorMessage(message, OPEN_SETTINGS, SHOW_OUTPUT);
    if (chosen === OPEN_SETTINGS) await vscode.commands.executeCommand("workbench.action.openSettings", settingsQuery);
    else if (chosen === SHOW_OUTPUT) this.output.show(true);
  }
}

function readSettings(): ServerSettings {
  const configuration = vscode.workspace.getConfiguration("ruleServer");
  const args = configuration.get<unknown>("args", []);
  return {
    path: String(configuration.get<unknown>("path", DEFAULT_SERVER_PATH) ?? DEFAULT_SERVER_PATH),
    args: Array.isArray(args) ? args.filter((arg): arg is string => typeof arg === "string") : [],
  };
}
