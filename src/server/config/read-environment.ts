import { ConfigurationError, type ServerOptions } from "./server-options.ts";

/**
 * The stand-alone server's options from its environment (SERVER.md, Configuration). Every bad
 * value is reported; the caller logs one fatal line and exits with status 1.
 */
export interface EnvironmentOptions extends ServerOptions {
  /** `RULE_SERVER_ALLOW_OPEN` was set while a token was given: it is ignored, with a warning. */
  readonly openModeIgnored: boolean;
}

export function readEnvironment(env: Readonly<Record<string, string | undefined>>): EnvironmentOptions {
  const problems: string[] = [];
  const integer = (name: string, fallback: number, valid: (n: number) => boolean, what: string): number => {
    const text = env[name];
    if (text === undefined || text === "") return fallback;
    const value = Number(text);
    if (!/^[0-9]+$/.test(text.trim()) || !valid(value)) problems.push(`${name} must be ${what}, got ${JSON.stringify(text)}`);
    return value;
  };
  const port = integer("PORT", 8080, (n) => n >= 0 && n <= 65535, "an integer from 0 to 65535");
  const workers = integer("RULE_SERVER_WORKERS", 0, (n) => Number.isSafeInteger(n), "a non-negative integer");
  const evaluationTimeoutMs = integer("RULE_EVALUATION_TIMEOUT_MS", 5000, (n) => n > 0 && Number.isSafeInteger(n), "a positive integer");
  let drainSeconds = 5;
  const drainText = env.DRAIN_SECONDS;
  if (drainText !== undefined && drainText !== "") {
    drainSeconds = Number(drainText);
    if (!/^\s*[0-9]+(\.[0-9]+)?\s*$/.test(drainText) || !Number.isFinite(drainSeconds)) problems.push(`DRAIN_SECONDS must be a non-negative number, got ${JSON.stringify(drainText)}`);
  }
  const refresh = env.RULES_REFRESH ?? "manual";
  if (refresh !== "manual") {
    if (refresh === "interval" || refresh === "cron") problems.push(`RULES_REFRESH=${refresh} is not supported by this version; use manual and reload with SIGHUP`);
    else problems.push(`RULES_REFRESH must be manual, interval or cron, got ${JSON.stringify(refresh)}`);
  }
  if (workers > 0) problems.push("RULE_SERVER_WORKERS above 0 is not supported by this version; evaluations run on the event loop (0)");
  if (problems.length > 0) throw new ConfigurationError(problems);
  const token = env.RULE_SERVER_TOKEN === "" ? undefined : env.RULE_SERVER_TOKEN;
  const allowOpen = env.RULE_SERVER_ALLOW_OPEN === "1" || env.RULE_SERVER_ALLOW_OPEN === "true";
  return {
    rulesDir: env.RULES_DIR || "./rules",
    port,
    token,
    allowOpen: token === undefined && allowOpen,
    openModeIgnored: token !== undefined && allowOpen,
    workers,
    evaluationTimeoutMs,
    drainSeconds,
    refresh: { mode: "manual" },
  };
}
