import { runCheckCommand } from "./check-command.ts";
import type { CommandIo } from "./command-io.ts";
import { runCompileCommand, runManifestCommand } from "./compile-command.ts";
import { runCronCommand } from "./cron-command.ts";
import { runEngineCommand } from "./engine-command.ts";
import { runEvaluateCommand } from "./evaluate-command.ts";
import { runPlanCommand } from "./plan-command.ts";
import { runFmtCommand } from "./fmt-command.ts";
import { commandHelp, HELP_TEXT } from "./help-text.ts";
import { runLspCommand } from "./lsp-command.ts";
import { runReplayCommand } from "./replay-command.ts";
import { runSchemaCommand } from "./schema-command.ts";
import { runServeCommand } from "./serve-command.ts";
import { runTestCommand } from "./test-command.ts";
import { UsageError } from "./usage-error.ts";
import { versionText } from "./version-command.ts";

/**
 * Runs `rule-server <args>` with the streams of `io` and resolves with the exit status: a usage
 * error is 2, with the help after the message; any other error is 1. `serve` and `lsp` own the
 * process (its signals, its standard input and output) and ignore `io`.
 */
export async function runCommand(args: readonly string[], io: CommandIo): Promise<number> {
  try {
    return await dispatch(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      await io.stderr.write(`rule-server: ${error.message}\n\n${HELP_TEXT}`);
      return 2;
    }
    await io.stderr.write(`rule-server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

async function dispatch(args: readonly string[], io: CommandIo): Promise<number> {
  const [command, ...rest] = args;
  if (command !== undefined && (rest.includes("--help") || rest.includes("-h"))) {
    await io.stdout.write(commandHelp(command));
    return 0;
  }
  switch (command) {
    case "engine":
      return runEngineCommand(rest, io);
    case "check":
      return runCheckCommand(rest, io);
    case "test":
      return runTestCommand(rest, io);
    case "lsp":
      return runLspCommand(rest);
    case "replay":
      return runReplayCommand(rest, io);
    case "fmt":
      return runFmtCommand(rest, io);
    case "compile":
      return runCompileCommand(rest, io);
    case "manifest":
      return runManifestCommand(rest, io);
    case "evaluate":
      return runEvaluateCommand(rest, io);
    case "plan":
      return runPlanCommand(rest, io);
    case "cron":
      return runCronCommand(rest, io);
    case "schema":
      return runSchemaCommand(rest, io);
    // Imported when run: signing loads jose, which the other commands and the server's start never need.
    case "keygen":
      return (await import("./keygen-command.ts")).runKeygenCommand(rest, io);
    case "sign":
      return (await import("./sign-command.ts")).runSignCommand(rest, io);
    case "push":
      return (await import("./push-command.ts")).runPushCommand(rest, io);
    case "version":
    case "--version":
      await io.stdout.write(versionText());
      return 0;
    case "help":
    case "--help":
    case "-h":
      await io.stdout.write(HELP_TEXT);
      return 0;
    case undefined:
    case "serve":
      return runServeCommand();
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}
