import { parseCommandArguments } from "./command-arguments.ts";
import { operatorsOption } from "./operators-option.ts";

/**
 * `rule-server lsp [--stdio] [--operators test]`: the language server on standard input and
 * output, until the editor sends `exit` (vscode-languageserver then ends the process). `--stdio`
 * is accepted because editors' clients commonly add it. The language server is imported here, when
 * the command runs: vscode-languageserver sets itself up as it is loaded, which took a third of
 * every other command's start-up (the server's included).
 */
export async function runLspCommand(args: readonly string[]): Promise<number> {
  const parsed = parseCommandArguments("lsp", args, { flags: ["--stdio"], options: ["--operators"] });
  const operators = operatorsOption("lsp", parsed.options.get("--operators"));
  const { startLanguageServer } = await import("../lsp/language-server.ts");
  startLanguageServer(process.stdin, process.stdout, operators);
  // Never resolves: the connection's exit handler ends the process.
  return new Promise<number>(() => {});
}
