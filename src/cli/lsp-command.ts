import { startLanguageServer } from "../lsp/language-server.ts";
import { parseCommandArguments } from "./command-arguments.ts";
import { operatorsOption } from "./operators-option.ts";

/**
 * `rule-server lsp [--stdio] [--operators test]`: the language server on standard input and
 * output, until the editor sends `exit` (vscode-languageserver then ends the process). `--stdio`
 * is accepted because editors' clients commonly add it.
 */
export function runLspCommand(args: readonly string[]): Promise<number> {
  const parsed = parseCommandArguments("lsp", args, { flags: ["--stdio"], options: ["--operators"] });
  startLanguageServer(process.stdin, process.stdout, operatorsOption("lsp", parsed.options.get("--operators")));
  // Never resolves: the connection's exit handler ends the process.
  return new Promise<number>(() => {});
}
