#!/usr/bin/env bun
/**
 * The `rule-server` command line: `bun src/main.ts <command>`. With no command it serves.
 */
import { processIo } from "./cli/command-io.ts";
import { runCommand } from "./cli/run-command.ts";
import { flushStandardOutput } from "./standard-output/standard-output.ts";

runCommand(process.argv.slice(2), processIo()).then(
  // Log lines are batched; write the last ones before exiting.
  (status) => flushStandardOutput().then(() => process.exit(status)),
  // Only when even the error could not be written (stderr closed).
  () => process.exit(1),
);
