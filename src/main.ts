#!/usr/bin/env bun
/**
 * The `rule-server` command line: `bun src/main.ts <command>`. With no command it serves.
 */
import { runCheckCommand } from "./cli/check-command.ts";
import { runCompileCommand, runManifestCommand } from "./cli/compile-command.ts";
import { runCronCommand } from "./cli/cron-command.ts";
import { runEngineCommand } from "./cli/engine-command.ts";
import { runEvaluateCommand } from "./cli/evaluate-command.ts";
import { runLspCommand } from "./cli/lsp-command.ts";
import { runReplayCommand } from "./cli/replay-command.ts";
import { runServeCommand } from "./cli/serve-command.ts";
import { runTestCommand } from "./cli/test-command.ts";
import { commandHelp, HELP_TEXT } from "./cli/help-text.ts";
import { runSchemaCommand } from "./cli/schema-command.ts";
import { UsageError } from "./cli/usage-error.ts";
import { versionText } from "./cli/version-command.ts";
import { flushStandardOutput } from "./standard-output/standard-output.ts";

async function main(args: readonly string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command !== undefined && (rest.includes("--help") || rest.includes("-h"))) {
    process.stdout.write(commandHelp(command));
    return 0;
  }
  switch (command) {
    case "engine":
      return runEngineCommand(rest);
    case "check":
      return runCheckCommand(rest);
    case "test":
      return runTestCommand(rest);
    case "lsp":
      return runLspCommand(rest);
    case "replay":
      return runReplayCommand(rest);
    case "compile":
      return runCompileCommand(rest);
    case "manifest":
      return runManifestCommand(rest);
    case "evaluate":
      return runEvaluateCommand(rest);
    case "cron":
      return runCronCommand(rest);
    case "schema":
      return runSchemaCommand(rest);
    case "version":
    case "--version":
      process.stdout.write(versionText());
      return 0;
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(HELP_TEXT);
      return 0;
    case undefined:
    case "serve":
      return runServeCommand();
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

main(process.argv.slice(2)).then(
  // Log lines are batched; write the last ones before exiting.
  (status) => flushStandardOutput().then(() => process.exit(status)),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`rule-server: ${error.message}\n\n${HELP_TEXT}`);
      process.exit(2);
    }
    process.stderr.write(`rule-server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
