import { parseRefreshInterval } from "../../schedule/refresh-interval.ts";
import { cronSettingProblem } from "../refresh/cron-setting.ts";
import { listenHost } from "./listen-host.ts";
import { DEFAULT_BATCH_LIMITS, HTTP_BODY_CEILING, isBatchMaxBytes, isBatchMaxItems } from "./batch-limits.ts";
import { isSchemaEnforcement, type SchemaEnforcement } from "../../engine/schema/request-fit.ts";
import { ConfigurationError, type JwtSettings, type RefreshSetting, type ServerOptions } from "./server-options.ts";
import { readProcessesSetting, type ProcessesSetting } from "../supervisor/processes-setting.ts";
import { recordMaskProblem } from "../../records/record-mask.ts";
import type { TlsFiles } from "../tls/tls-material.ts";
import { readRulesSource } from "./rules-source-setting.ts";
import { readTraceSettings, TRACE_VARIABLES } from "../../tracing/trace-settings.ts";

/** Every variable the stand-alone server reads. */
export const ENVIRONMENT_VARIABLES = [
  "RULES_DIR",
  "HOST",
  "PORT",
  "RULE_SERVER_TOKEN",
  "RULE_SERVER_ALLOW_OPEN",
  "DRAIN_SECONDS",
  "RULES_REFRESH",
  "RULES_REFRESH_INTERVAL",
  "RULES_REFRESH_CRON",
  "RULES_REFRESH_TZ",
  "RULE_SERVER_WORKERS",
  "RULE_SERVER_PROCESSES",
  "RULE_EVALUATION_TIMEOUT_MS",
  "RULE_SERVER_BATCH_MAX_ITEMS",
  "RULE_SERVER_BATCH_MAX_BYTES",
  "RULE_SERVER_EXPLORER",
  "RULE_SERVER_SCHEMA_ENFORCEMENT",
  "RULE_SERVER_RUN_TESTS",
  "RULE_SERVER_DECISION_RECORDS",
  "RULE_SERVER_DECISION_MASK",
  "RULE_SERVER_DECISION_RECORDS_REQUIRED",
  "RULE_SERVER_TLS_CERT",
  "RULE_SERVER_TLS_KEY",
  "RULE_SERVER_TLS_CLIENT_CA",
  "RULE_SERVER_CREDENTIALS",
  "RULE_SERVER_JWT_JWKS",
  "RULE_SERVER_JWT_ISSUER",
  "RULE_SERVER_JWT_AUDIENCE",
  "RULES_SOURCE",
  "RULES_SOURCE_TOKEN",
  "RULES_SOURCE_CACHE",
  "RULE_SERVER_REGISTRY_AUTH",
  "RULE_SERVER_TRUSTED_KEYS",
  ...TRACE_VARIABLES,
] as const;

export interface EnvironmentOptions extends ServerOptions {
  /** `RULE_SERVER_ALLOW_OPEN` was set while a token was given: it is ignored, with a warning. */
  readonly openModeIgnored: boolean;
  /** RULE_SERVER_PROCESSES: how many processes serve the port (supervisor/processes-setting.ts). */
  readonly processes: ProcessesSetting;
}

/**
 * The stand-alone server's options from its environment (SERVER.md, Configuration). Every bad
 * value is reported; the caller logs one fatal line and exits with status 1.
 */
export function readEnvironment(env: Readonly<Record<string, string | undefined>>): EnvironmentOptions {
  const problems: string[] = [];
  const integer = (name: string, fallback: number, valid: (n: number) => boolean, what: string): number => {
    const text = env[name];
    if (text === undefined || text === "") return fallback;
    const value = Number(text);
    if (!/^[0-9]+$/.test(text.trim()) || !valid(value))
      problems.push(`${name} must be ${what}, got ${JSON.stringify(text)}`);
    return value;
  };
  /** A switch: 1 or true, 0 or false; unset or empty is `fallback`. */
  const flag = (name: string, fallback: boolean): boolean => {
    const text = env[name];
    if (text === undefined || text === "") return fallback;
    if (!["0", "1", "false", "true"].includes(text))
      problems.push(`${name} must be 0 or 1, got ${JSON.stringify(text)}`);
    return text === "1" || text === "true";
  };
  const port = integer("PORT", 8080, (n) => n >= 0 && n <= 65535, "an integer from 0 to 65535");
  const hostText = env.HOST;
  const hostname = hostText === undefined || hostText === "" ? undefined : listenHost(hostText);
  if (hostText !== undefined && hostText !== "" && hostname === undefined)
    problems.push(`HOST must be an IP address or a host name, got ${JSON.stringify(hostText)}`);
  const workers = integer("RULE_SERVER_WORKERS", 0, (n) => Number.isSafeInteger(n), "a non-negative integer");
  const processes = readProcessesSetting(env.RULE_SERVER_PROCESSES, process.platform);
  if (!processes.ok) problems.push(processes.problem);
  const evaluationTimeoutMs = integer(
    "RULE_EVALUATION_TIMEOUT_MS",
    5000,
    (n) => n > 0 && Number.isSafeInteger(n),
    "a positive integer",
  );
  const batchMaxItems = integer(
    "RULE_SERVER_BATCH_MAX_ITEMS",
    DEFAULT_BATCH_LIMITS.maxItems,
    isBatchMaxItems,
    "a positive integer",
  );
  const batchMaxBytes = integer(
    "RULE_SERVER_BATCH_MAX_BYTES",
    DEFAULT_BATCH_LIMITS.maxBytes,
    isBatchMaxBytes,
    `a positive integer of at most ${HTTP_BODY_CEILING} (128 MiB)`,
  );
  let drainSeconds = 5;
  const drainText = env.DRAIN_SECONDS;
  if (drainText !== undefined && drainText !== "") {
    drainSeconds = Number(drainText);
    if (!/^\s*[0-9]+(\.[0-9]+)?\s*$/.test(drainText) || !Number.isFinite(drainSeconds))
      problems.push(`DRAIN_SECONDS must be a non-negative number, got ${JSON.stringify(drainText)}`);
  }
  const refresh = readRefresh(env, problems);
  const token = env.RULE_SERVER_TOKEN === "" ? undefined : env.RULE_SERVER_TOKEN;
  const allowOpen = env.RULE_SERVER_ALLOW_OPEN === "1" || env.RULE_SERVER_ALLOW_OPEN === "true";
  const credentialsFile = env.RULE_SERVER_CREDENTIALS || undefined;
  const jwt = readJwtSettings(env, problems);
  const authenticated = token !== undefined || credentialsFile !== undefined || jwt !== undefined;
  // Worded for the person starting the binary: they set variables, not createServer options.
  if (!authenticated && !allowOpen) {
    problems.push(
      "RULE_SERVER_TOKEN is not set: set it to the bearer token clients must send (or RULE_SERVER_CREDENTIALS, or RULE_SERVER_JWT_JWKS), or set RULE_SERVER_ALLOW_OPEN=1 to serve every endpoint without a token (private networks only)",
    );
  }
  const explorer = flag("RULE_SERVER_EXPLORER", true);
  const enforcementText = env.RULE_SERVER_SCHEMA_ENFORCEMENT;
  const schemaEnforcement = enforcementText === undefined || enforcementText === "" ? "warn" : enforcementText;
  if (!isSchemaEnforcement(schemaEnforcement))
    problems.push(`RULE_SERVER_SCHEMA_ENFORCEMENT must be off, warn or reject, got ${JSON.stringify(enforcementText)}`);
  const decisionRecordsRequired = flag("RULE_SERVER_DECISION_RECORDS_REQUIRED", false);
  const maskProblem = recordMaskProblem(env.RULE_SERVER_DECISION_MASK);
  if (maskProblem !== undefined) problems.push(maskProblem);
  const runTests = flag("RULE_SERVER_RUN_TESTS", false);
  const tls = readTlsFiles(env, problems);
  const rulesSource = readRulesSource(env, problems);
  const trustedKeys = env.RULE_SERVER_TRUSTED_KEYS || undefined;
  const tracing = readTraceSettings(env, problems);
  if (problems.length > 0) throw new ConfigurationError(problems);
  return {
    rulesDir: env.RULES_DIR || "./rules",
    port,
    hostname,
    token,
    ...(credentialsFile === undefined ? {} : { credentialsFile }),
    ...(jwt === undefined ? {} : { jwt }),
    allowOpen: !authenticated && allowOpen,
    openModeIgnored: authenticated && allowOpen,
    processes: processes.ok ? processes.setting : { kind: "count", count: 1 },
    workers,
    evaluationTimeoutMs,
    batchMaxItems,
    batchMaxBytes,
    drainSeconds,
    refresh,
    explorer,
    schemaEnforcement: schemaEnforcement as SchemaEnforcement,
    runTests,
    decisionRecords: env.RULE_SERVER_DECISION_RECORDS || "off",
    decisionMask: env.RULE_SERVER_DECISION_MASK ?? "",
    decisionRecordsRequired,
    ...(tls === undefined ? {} : { tls }),
    ...(rulesSource === undefined ? {} : { rulesSource }),
    ...(trustedKeys === undefined ? {} : { trustedKeys }),
    ...(tracing === undefined ? {} : { tracing }),
  };
}

/** JWTs need the key set, the issuer and the audience: a token is checked against all three. */
function readJwtSettings(
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): JwtSettings | undefined {
  const jwks = env.RULE_SERVER_JWT_JWKS || undefined;
  const issuer = env.RULE_SERVER_JWT_ISSUER || undefined;
  const audience = env.RULE_SERVER_JWT_AUDIENCE || undefined;
  if (jwks === undefined && issuer === undefined && audience === undefined) return undefined;
  const missing = [
    ["RULE_SERVER_JWT_JWKS", jwks],
    ["RULE_SERVER_JWT_ISSUER", issuer],
    ["RULE_SERVER_JWT_AUDIENCE", audience],
  ].filter(([, value]) => value === undefined);
  if (missing.length > 0) {
    problems.push(
      `JWTs need RULE_SERVER_JWT_JWKS, RULE_SERVER_JWT_ISSUER and RULE_SERVER_JWT_AUDIENCE: ${missing.map(([name]) => name).join(" and ")} ${missing.length === 1 ? "is" : "are"} not set`,
    );
    return undefined;
  }
  return { jwks: jwks!, issuer: issuer!, audience: audience! };
}

/** HTTPS takes a certificate and its key together; a client CA only with them. */
function readTlsFiles(env: Readonly<Record<string, string | undefined>>, problems: string[]): TlsFiles | undefined {
  const certFile = env.RULE_SERVER_TLS_CERT || undefined;
  const keyFile = env.RULE_SERVER_TLS_KEY || undefined;
  const clientCaFile = env.RULE_SERVER_TLS_CLIENT_CA || undefined;
  if (certFile !== undefined && keyFile !== undefined)
    return { certFile, keyFile, ...(clientCaFile === undefined ? {} : { clientCaFile }) };
  if (certFile !== undefined)
    problems.push("RULE_SERVER_TLS_CERT is set without RULE_SERVER_TLS_KEY: HTTPS needs both");
  else if (keyFile !== undefined)
    problems.push("RULE_SERVER_TLS_KEY is set without RULE_SERVER_TLS_CERT: HTTPS needs both");
  else if (clientCaFile !== undefined)
    problems.push(
      "RULE_SERVER_TLS_CLIENT_CA is set without RULE_SERVER_TLS_CERT and RULE_SERVER_TLS_KEY: client certificates need HTTPS",
    );
  return undefined;
}

function readRefresh(env: Readonly<Record<string, string | undefined>>, problems: string[]): RefreshSetting {
  const mode = env.RULES_REFRESH || "manual";
  switch (mode) {
    case "manual":
      return { mode };
    case "interval": {
      const text = env.RULES_REFRESH_INTERVAL;
      if (text === undefined || text === "") {
        problems.push(
          "RULES_REFRESH=interval needs RULES_REFRESH_INTERVAL (30s, 5m, 1h, 1500ms or a number of seconds)",
        );
        return { mode: "manual" };
      }
      const interval = parseRefreshInterval(text);
      if (!interval.ok) {
        problems.push(`RULES_REFRESH_INTERVAL: ${interval.reason}`);
        return { mode: "manual" };
      }
      return { mode, intervalMs: interval.milliseconds };
    }
    case "cron": {
      const timeZone = env.RULES_REFRESH_TZ || "UTC";
      const problem = cronSettingProblem(env.RULES_REFRESH_CRON, timeZone);
      if (problem !== undefined) {
        problems.push(problem);
        return { mode: "manual" };
      }
      return { mode, expression: env.RULES_REFRESH_CRON!, timeZone };
    }
    default:
      problems.push(`RULES_REFRESH must be manual, interval or cron, got ${JSON.stringify(mode)}`);
      return { mode: "manual" };
  }
}
