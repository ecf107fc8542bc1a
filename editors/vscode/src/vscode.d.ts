/**
 * The parts of VS Code's extension API this extension uses, declared here because the `vscode`
 * types (@types/vscode) are not among the project's pinned packages. VS Code provides the module
 * at run time; the bundle leaves `require("vscode")` to it. Add a member here before using it.
 */
declare module "vscode" {
  export interface Thenable<T> extends PromiseLike<T> {}

  export class Disposable {
    constructor(callOnDispose: () => unknown);
    static from(...disposables: { dispose(): unknown }[]): Disposable;
    dispose(): unknown;
  }

  export type Event<T> = (
    listener: (event: T) => unknown,
    thisArgs?: unknown,
    disposables?: Disposable[],
  ) => Disposable;

  export interface Uri {
    readonly scheme: string;
    readonly fsPath: string;
  }

  export interface TextDocument {
    readonly uri: Uri;
    readonly fileName: string;
    readonly languageId: string;
  }

  export interface WorkspaceFolder {
    readonly uri: Uri;
    readonly name: string;
    readonly index: number;
  }

  export interface WorkspaceConfiguration {
    get<T>(section: string, defaultValue: T): T;
  }

  export interface ConfigurationChangeEvent {
    affectsConfiguration(section: string): boolean;
  }

  export interface FileSystemWatcher extends Disposable {}

  export interface LogOutputChannel extends Disposable {
    show(preserveFocus?: boolean): void;
    info(message: string, ...args: unknown[]): void;
    error(error: string | Error, ...args: unknown[]): void;
  }

  export interface ExtensionContext {
    readonly subscriptions: { dispose(): unknown }[];
  }

  export namespace workspace {
    const workspaceFolders: readonly WorkspaceFolder[] | undefined;
    const textDocuments: readonly TextDocument[];
    const onDidOpenTextDocument: Event<TextDocument>;
    const onDidChangeConfiguration: Event<ConfigurationChangeEvent>;
    function getConfiguration(section?: string): WorkspaceConfiguration;
    function findFiles(include: string, exclude?: string | null, maxResults?: number): Thenable<Uri[]>;
    function createFileSystemWatcher(globPattern: string): FileSystemWatcher;
  }

  export namespace window {
    function showErrorMessage<T extends string>(message: string, ...items: T[]): Thenable<T | undefined>;
    function createOutputChannel(name: string, options: { log: true }): LogOutputChannel;
  }

  export namespace commands {
    function registerCommand(command: string, callback: (...args: unknown[]) => unknown): Disposable;
    function executeCommand<T = unknown>(command: string, ...rest: unknown[]): Thenable<T>;
  }
}
