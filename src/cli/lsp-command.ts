import { startLanguageServer } from "../lsp/language-server.ts";
import { parseCommandArguments } from "./command-arguments.ts";

/**
 * `rule-server lsp [--stdio]`: the language server on standard input and output, until the editor
 * sends `exit` (vscode-languageserver then ends the process). `--stdio` is accepted because
 * editors' clients commonly add it.
 */
export function runLspCommand(args: readonly string[]): Promise<number> {
  parseCommandArguments("lsp", args, { flags: ["--stdio"] });
  startLanguageServer(process.stdin, process.stdout);
  // Never resolves: the connection's exit handler ends the process.
  return new Promise<number>(() => {});
}
