import type { Logger } from "../logging/logger.ts";
import { isSchemaEnforcement } from "../../engine/schema/request-fit.ts";
import { cronSettingProblem } from "../refresh/cron-setting.ts";
import { batchLimitsOf } from "./batch-limits.ts";
import { listenHost } from "./listen-host.ts";
import { ConfigurationError, type ServerOptions } from "./server-options.ts";

/** Below this length a token is accepted, with a warning: short tokens are guessed. */
const MIN_TOKEN_LENGTH = 16;

/** Options that passed their checks, with what the checks worked out. */
export interface CheckedOptions {
  /** The address to listen on, in the form Bun takes; undefined for every interface. */
  readonly hostname: string | undefined;
  /** The token; undefined in open mode. */
  readonly token: string | undefined;
}

/**
 * The checks every role of the server runs on its options before it does anything: a token or
 * open mode, a refresh schedule that can run, a listen address, limits and modes that exist.
 * Throws ConfigurationError naming the first problem found.
 */
export function checkOptions(options: ServerOptions): CheckedOptions {
  const token = options.token === "" ? undefined : options.token;
  if (token === undefined && !hasCredentials(options) && options.allowOpen !== true) {
    throw new ConfigurationError([
      "a token is required: pass the token option (or credentialsFile, or jwt), or allowOpen: true to serve every endpoint without one",
    ]);
  }
  if (options.jwt !== undefined && !(options.jwt.jwks && options.jwt.issuer && options.jwt.audience))
    throw new ConfigurationError(["jwt needs jwks, issuer and audience"]);
  const refresh = options.refresh ?? { mode: "manual" };
  if (refresh.mode === "interval" && !(refresh.intervalMs >= 1000))
    throw new ConfigurationError(["the refresh interval must be at least one second"]);
  if (refresh.mode === "cron") {
    const problem = cronSettingProblem(refresh.expression, refresh.timeZone);
    if (problem !== undefined) throw new ConfigurationError([problem]);
  }
  const workers = options.workers ?? 0;
  if (!Number.isSafeInteger(workers) || workers < 0)
    throw new ConfigurationError(["workers must be a non-negative integer"]);
  const hostname = options.hostname === undefined ? undefined : listenHost(options.hostname);
  if (options.schemaEnforcement !== undefined && !isSchemaEnforcement(options.schemaEnforcement))
    throw new ConfigurationError([
      `schemaEnforcement must be off, warn or reject, got ${JSON.stringify(options.schemaEnforcement)}`,
    ]);
  batchLimitsOf(options);
  if (options.hostname !== undefined && hostname === undefined)
    throw new ConfigurationError([
      `hostname must be an IP address or a host name, got ${JSON.stringify(options.hostname)}`,
    ]);
  if (workers > 0 && options.operators && !options.operatorsModule) {
    throw new ConfigurationError([
      "with workers, custom operators must come from operatorsModule: functions cannot cross threads",
    ]);
  }
  return { hostname, token };
}

/** Whether requests are authenticated by something besides the token: named credentials or JWTs. */
export function hasCredentials(options: ServerOptions): boolean {
  return (options.credentialsFile !== undefined && options.credentialsFile !== "") || options.jwt !== undefined;
}

/** Said by the process that loads the rules (a serving process of several says nothing its supervisor said). */
export function warnOfShortToken(token: string | undefined, logger: Logger): void {
  if (token === undefined || token.length >= MIN_TOKEN_LENGTH) return;
  logger.warn(
    `the token is shorter than ${MIN_TOKEN_LENGTH} characters: anyone who can reach the server may guess it; use a long random one (openssl rand -hex 32)`,
    { length: token.length },
  );
}
