import { readEnvironment } from "../server/config/read-environment.ts";
import { unknownVariables } from "../server/config/unknown-variables.ts";
import { ConfigurationError } from "../server/config/server-options.ts";
import { Logger } from "../server/logging/logger.ts";
import { createServer, type RuleServer } from "../server/rule-server.ts";
import { SnapshotError } from "../server/snapshot/rules-snapshot.ts";
import { resolveProcesses } from "../server/supervisor/process-count.ts";
import { SERVING_PROCESS_VARIABLE } from "../server/supervisor/serving-messages.ts";
import { runServingProcess } from "../server/supervisor/serving-process.ts";
import { SupervisedServer } from "../server/supervisor/supervised-server.ts";

/**
 * `rule-server` with no command: the server with options from the environment. Invalid settings
 * and a missing token end with a fatal line and status 1 before any rules load; SIGHUP reloads;
 * SIGTERM and SIGINT drain, and a second one ends the drain at once. With RULE_SERVER_PROCESSES
 * above 1 this process supervises serving processes (src/server/supervisor/), each started as
 * `rule-server serve` again; SIGUSR1 reopens the decision records file. A variable with the
 * server's prefixes that it does not read is named in a `warn` line, with the one it most likely
 * means: it is ignored, and the start goes on.
 */
export async function runServeCommand(): Promise<number> {
  if (process.env[SERVING_PROCESS_VARIABLE] !== undefined) return runServingProcess();
  let logger = new Logger();
  let server: RuleServer | SupervisedServer | undefined;
  let supervised: SupervisedServer | undefined;
  // Said once, with the logger of the server (its pid with several processes), or before a fatal line.
  let unknownSaid = false;
  const sayUnknownVariables = (): void => {
    if (unknownSaid) return;
    unknownSaid = true;
    for (const unknown of unknownVariables(process.env)) logger.warn("unknown setting is ignored", { ...unknown });
  };
  try {
    const options = readEnvironment(process.env);
    const processes = resolveProcesses(options.processes);
    logger = processes.logger;
    sayUnknownVariables();
    if (options.openModeIgnored) logger.warn("RULE_SERVER_ALLOW_OPEN is ignored because RULE_SERVER_TOKEN is set");
    supervised = processes.count > 1 ? new SupervisedServer(options, processes.count) : undefined;
    server = supervised ?? createServer(options);
    if (options.allowOpen)
      logger.warn("open mode: every endpoint is served without a token; acceptable only on a private network");
    await server.listen();
  } catch (error) {
    // A misspelt variable is often why a setting is missing: say so before the fatal line.
    sayUnknownVariables();
    if (error instanceof ConfigurationError) logger.fatal("invalid configuration", { problems: error.problems });
    else if (error instanceof SnapshotError)
      logger.fatal("the rules cannot be served", { rulesDir: server?.rulesDir, problems: error.problems });
    else logger.fatal("start-up failed", { error: error instanceof Error ? error.message : String(error) });
    return 1;
  }
  const running = server;
  const gaveUp = supervised?.failed;
  process.on("SIGHUP", () => void running.reload("SIGHUP"));
  // logrotate moves the records file, then sends SIGUSR1: records go on in a new file at the same path.
  process.on("SIGUSR1", () => running.reopenDecisionRecords());
  return new Promise<number>((resolve) => {
    void gaveUp?.then(resolve);
    let signals = 0;
    const onStop = (signal: string): void => {
      signals++;
      if (signals === 1) {
        logger.info("shutdown requested", { signal });
        void running.drain().then(() => resolve(0));
      } else {
        logger.info("drain ended early", { signal });
        void running.stop().then(() => resolve(0));
      }
    };
    process.on("SIGTERM", () => onStop("SIGTERM"));
    process.on("SIGINT", () => onStop("SIGINT"));
  });
}
