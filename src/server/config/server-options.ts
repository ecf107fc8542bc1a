import type { SchemaEnforcement } from "../../engine/schema/request-fit.ts";
import type { CustomOperator } from "../../engine/expression/custom-operators.ts";
import type { LogSink } from "../logging/logger.ts";
import type { Clock } from "../refresh/clock.ts";
import type { TlsFiles } from "../tls/tls-material.ts";
import type { TraceSettings } from "../../tracing/trace-settings.ts";

/** Options of `createServer` (DECISIONS.md, Embedding); the stand-alone binary reads them from the environment. */
export interface ServerOptions {
  /** Directory with the rulesets; default `./rules`. */
  readonly rulesDir?: string;
  /** Listen port; default 8080, 0 picks a free one. */
  readonly port?: number;
  /** Listen address (an IP address or a host name); default all interfaces. */
  readonly hostname?: string;
  /** Bearer token for the protected endpoints. An empty string counts as none. */
  readonly token?: string;
  /**
   * RULE_SERVER_CREDENTIALS: a YAML or JSON file of named credentials with scopes (README, Securing
   * the API), read again on SIGHUP; beside `token`, which is the credential `default`.
   */
  readonly credentialsFile?: string;
  /** Bearer JWTs signed by a key of `jwks` (a file or an https:// URL), for `issuer` and `audience`. */
  readonly jwt?: JwtSettings;
  /** Serve every endpoint without a token; only when no token, credentials or JWTs are given. */
  readonly allowOpen?: boolean;
  /** Custom operators, name (`x-...`) to a synchronous pure function of plain JSON values. */
  readonly operators?: Readonly<Record<string, CustomOperator>>;
  /** Worker threads that evaluate; 0 evaluates on the event loop. */
  readonly workers?: number;
  /**
   * With workers: the module (a path or URL) every worker imports its custom operators from, as
   * `export const operators = { "x-...": fn }`. Functions cannot cross threads, so `operators`
   * alone only works without workers; the server itself imports this module too when `operators`
   * is not given.
   */
  readonly operatorsModule?: string;
  /** With workers: an evaluation running longer is answered 503. */
  readonly evaluationTimeoutMs?: number;
  /** Most items a `POST /evaluations/batch` may hold (413 above); default 1000. */
  readonly batchMaxItems?: number;
  /** Largest body of a `POST /evaluations/batch` in bytes (413 above); default 16 MiB, at most 128 MiB. */
  readonly batchMaxBytes?: number;
  /** Seconds between readiness turning 503 and the end of service after a drain starts. */
  readonly drainSeconds?: number;
  /** Reload schedule; `manual` reloads on SIGHUP (or `reload()`) only. */
  readonly refresh?: RefreshSetting;
  /** Serve the rules explorer page at `/explorer/` (public, read-only); default true. */
  readonly explorer?: boolean;
  /**
   * Requests checked against the ruleset before they are evaluated: `warn` (default) answers as
   * usual and adds `warnings`; `reject` answers 422 instead; `off` checks nothing.
   */
  readonly schemaEnforcement?: SchemaEnforcement;
  /**
   * Runs the golden tests of every ruleset at start-up and on every reload (RULE_SERVER_RUN_TESTS):
   * a failing test refuses the load like any other problem. Default false.
   */
  readonly runTests?: boolean;
  /** Decision records (RULE_SERVER_DECISION_RECORDS): `off` (default), `stdout`, or a file path. */
  readonly decisionRecords?: string;
  /** RULE_SERVER_DECISION_MASK: comma-separated JSON Pointers into the request, written as "***". */
  readonly decisionMask?: string;
  /** RULE_SERVER_DECISION_RECORDS_REQUIRED: answer evaluations 503 while records cannot be written. */
  readonly decisionRecordsRequired?: boolean;
  /** HTTPS with these files (RULE_SERVER_TLS_CERT, _KEY, _CLIENT_CA), read again on SIGHUP; plain HTTP without. */
  readonly tls?: TlsFiles;
  /**
   * RULES_SOURCE and its companions: the rules are pulled from an OCI registry or another
   * rule-server instead of read from `rulesDir` (README, Releasing rules to a fleet).
   */
  readonly rulesSource?: RulesSourceSetting;
  /**
   * RULE_SERVER_TRUSTED_KEYS: comma-separated PEM public key files, or one JWKS file. Only bundles
   * signed by one of them load, from any source; source documents are refused.
   */
  readonly trustedKeys?: string;
  /** OpenTelemetry tracing (OTEL_EXPORTER_OTLP_* and the other OTEL_ variables); off without. */
  readonly tracing?: TraceSettings;
  /** Where log lines go; standard output by default. */
  readonly log?: LogSink;
  /** The time the refresh schedule and the drain read; the system's by default (tests pass their own). */
  readonly clock?: Clock;
}

/** RULES_SOURCE, RULES_SOURCE_TOKEN, RULES_SOURCE_CACHE and RULE_SERVER_REGISTRY_AUTH. */
export interface RulesSourceSetting {
  /** `oci://HOST[:PORT]/REPO:TAG` or `…@sha256:<hex>`, or the URL of another rule-server. */
  readonly ref: string;
  /** The bearer token sent to another rule-server. */
  readonly token?: string;
  /** Where the last good release is kept, written atomically: a server whose first pull fails starts from it. */
  readonly cacheDirectory?: string;
  /** `user:password` for the registry; without it, the Docker config's entry for the host. */
  readonly registryAuth?: string;
}

/** RULE_SERVER_JWT_JWKS, RULE_SERVER_JWT_ISSUER and RULE_SERVER_JWT_AUDIENCE. */
export interface JwtSettings {
  readonly jwks: string;
  readonly issuer: string;
  readonly audience: string;
}

/**
 * When the rules directory is checked for changes besides SIGHUP: never, every interval, or at a
 * cron schedule's fire times in a time zone.
 */
export type RefreshSetting =
  | { readonly mode: "manual" }
  | { readonly mode: "interval"; readonly intervalMs: number }
  | { readonly mode: "cron"; readonly expression: string; readonly timeZone: string };

/** Options that cannot be served; every problem is listed. */
export class ConfigurationError extends Error {
  readonly code = "CONFIGURATION_INVALID" as const;
  override readonly name = "ConfigurationError";
  constructor(readonly problems: readonly string[]) {
    super(problems.join("; "));
  }
}
