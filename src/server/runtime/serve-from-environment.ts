import { readEnvironment } from "../config/read-environment.ts";
import { ConfigurationError } from "../config/server-options.ts";
import { unknownVariables } from "../config/unknown-variables.ts";
import { Logger } from "../logging/logger.ts";
import { createServer, type RuleServer } from "../rule-server.ts";
import { SnapshotError } from "../snapshot/rules-snapshot.ts";
import { resolveProcesses } from "../supervisor/process-count.ts";
import { SERVING_PROCESS_VARIABLE } from "../supervisor/serving-messages.ts";
import { runServingProcess } from "../supervisor/serving-process.ts";
import { SupervisedServer } from "../supervisor/supervised-server.ts";
import { TlsFilesError } from "../tls/tls-material.ts";
import { JwksError } from "../auth/jwks-error.ts";
import { CredentialsError, describeCredentialsProblem } from "../auth/credentials-error.ts";
import { serveUntilSignalled } from "./process-signals.ts";
import { SourceError } from "../../sources/source-error.ts";

/** Where the rules were to come from, for a fatal line: RULES_SOURCE, or the directory. */
function rulesOrigin(env: NodeJS.ProcessEnv): { source: string } | { rulesDir: string } {
  return env.RULES_SOURCE ? { source: env.RULES_SOURCE } : { rulesDir: env.RULES_DIR || "./rules" };
}

/**
 * The server as the executable runs it, with options from the environment, in the role the
 * environment gives this process: a lone server; with RULE_SERVER_PROCESSES above 1, the supervisor
 * of serving processes (src/server/supervisor/), each started as `rule-server serve` again; or one
 * of those serving processes. Each role owns its signals. Invalid settings and a missing token end
 * with a fatal line and status 1 before any rules load. A variable with the server's prefixes that
 * it does not read is named in a `warn` line, with the one it most likely means: it is ignored,
 * and the start goes on. Resolves with the exit status.
 */
export async function serveFromEnvironment(env: NodeJS.ProcessEnv): Promise<number> {
  if (env[SERVING_PROCESS_VARIABLE] !== undefined) return runServingProcess();
  let logger = new Logger();
  let server: RuleServer | SupervisedServer | undefined;
  let supervised: SupervisedServer | undefined;
  // Said once, with the logger of the server (its pid with several processes), or before a fatal line.
  let unknownSaid = false;
  const sayUnknownVariables = (): void => {
    if (unknownSaid) return;
    unknownSaid = true;
    for (const unknown of unknownVariables(env)) logger.warn("unknown setting is ignored", { ...unknown });
  };
  try {
    const options = readEnvironment(env);
    const processes = resolveProcesses(options.processes);
    logger = processes.logger;
    sayUnknownVariables();
    if (options.openModeIgnored)
      logger.warn(
        "RULE_SERVER_ALLOW_OPEN is ignored because RULE_SERVER_TOKEN, RULE_SERVER_CREDENTIALS or RULE_SERVER_JWT_JWKS is set",
      );
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
      logger.fatal("the rules cannot be served", { ...rulesOrigin(env), problems: error.problems });
    else if (error instanceof SourceError)
      logger.fatal(
        error.code === "SOURCE_PULL_FAILED"
          ? "the rules source cannot be pulled, and no last good copy is cached"
          : "the rules source cannot be used",
        {
          source: env.RULES_SOURCE,
          code: error.code,
          ...(error.fault === undefined ? {} : { fault: error.fault }),
          reason: error.message,
        },
      );
    else if (error instanceof CredentialsError)
      logger.fatal("the credentials cannot be used", {
        code: error.code,
        file: error.source,
        problems: error.problems.map(describeCredentialsProblem),
      });
    else if (error instanceof JwksError)
      logger.fatal("the JWT key set cannot be used", { code: error.code, problem: error.message });
    else if (error instanceof TlsFilesError)
      logger.fatal("the TLS files cannot be used", { code: error.code, problems: error.problems });
    else logger.fatal("start-up failed", { error: error instanceof Error ? error.message : String(error) });
    return 1;
  }
  const stopped = serveUntilSignalled(server, logger);
  // A supervisor whose serving processes keep stopping right after they start gives up with status 1.
  return supervised === undefined ? stopped : Promise.race([stopped, supervised.failed]);
}
