/**
 * What the extension tells an author whose language server does not start: what went wrong, and
 * the setting that fixes it. Each is one notification with buttons (below), never a stack trace.
 */
export const OPEN_SETTINGS = "Open Settings";
export const SHOW_OUTPUT = "Show Output";
export const OUTPUT_NAME = "Rule Cascade rules";

/** The executable was not found or cannot be run: nothing was started. */
export function executableProblemMessage(problem: string): string {
  return `Rule Cascade rules: cannot start the language server: ${problem}. Install rule-server (its release archives hold the executable), or set "ruleServer.path" to the rule-server executable.`;
}

/** The executable ran but the language server did not come up (an older rule-server without `lsp`, a wrong argument, a crash). */
export function startFailedMessage(commandLine: string, reason: string): string {
  return `Rule Cascade rules: the language server \`${commandLine}\` did not start (${reason}). Check "ruleServer.path" and "ruleServer.args" (the server needs a rule-server with the \`lsp\` command); what it printed is in the "${OUTPUT_NAME}" output.`;
}

/** The language client rejects with an Error, a ResponseError or a bare string; its message is enough. */
export function reasonOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string")
    return error.message;
  return String(error);
}
