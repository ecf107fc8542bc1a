import type { Server } from "bun";
import { resolve } from "node:path";
import { customOperatorsFrom, type CustomOperators } from "../engine/expression/custom-operators.ts";
import { BearerToken } from "./http/bearer-token.ts";
import { buildRouteTable, notFoundHandler, type RequestServices, type RouteDefinition } from "./http/router.ts";
import type { RequestIdentity } from "./http/request-id.ts";
import type { RouteContext } from "./http/route-context.ts";
import { eventLoopEvaluator, type RulesetEvaluator } from "./evaluation/ruleset-evaluator.ts";
import { Logger } from "./logging/logger.ts";
import { evaluations } from "./routes/evaluation-route.ts";
import { batchEvaluations } from "./routes/batch-evaluation-route.ts";
import { batchLimitsOf, type BatchLimits } from "./config/batch-limits.ts";
import { DecisionRecords } from "./evaluation/decision-records.ts";
import { health, readiness } from "./routes/health-routes.ts";
import { bundle, manifest, ruleDetails } from "./routes/manifest-route.ts";
import { rulesetList } from "./routes/ruleset-list-route.ts";
import { metricsExposition } from "./routes/metrics-route.ts";
import { openApiDescription } from "./routes/openapi-route.ts";
import { EXPLORER_ROUTES } from "./routes/explorer-route.ts";
import { ServerMetrics } from "./metrics/server-metrics.ts";
import { listenHost } from "./config/listen-host.ts";
import { refusedReload, type LastReload, type ReloadTrigger } from "./snapshot/last-reload.ts";
import { ConfigurationError, type ServerOptions } from "./config/server-options.ts";
import { loadSnapshot, SnapshotError, type RulesSnapshot } from "./snapshot/rules-snapshot.ts";
import { rulesDirectoryHash } from "../workspace/files/rules-directory-hash.ts";
import { cronDelay, cronSettingProblem } from "./refresh/cron-setting.ts";
import { RefreshTimer } from "./refresh/refresh-timer.ts";
import { WorkerPool } from "./workers/worker-pool.ts";
import type { ProcessRole, Supervision } from "./supervisor/process-role.ts";
import { isSchemaEnforcement, type SchemaEnforcement } from "../engine/schema/request-fit.ts";

/** Below this length a token is accepted, with a warning: short tokens are guessed. */
const MIN_TOKEN_LENGTH = 16;

export type { ReloadTrigger } from "./snapshot/last-reload.ts";

export type ReloadOutcome =
  | { readonly reloaded: true; readonly rulesets: number }
  | { readonly reloaded: false; readonly error: SnapshotError };

const ROUTES: Readonly<Record<string, RouteDefinition>> = {
  "/healthz": { GET: health, quiet: true },
  "/readyz": { GET: readiness, quiet: true },
  "/rulesets": { GET: rulesetList, preflight: true },
  "/rulesets/:id/manifest": { GET: manifest, preflight: true },
  "/rulesets/:id/bundle": { GET: bundle },
  "/rulesets/:id/rules/:ruleId": { GET: ruleDetails, preflight: true },
  "/evaluations": { POST: evaluations },
  "/evaluations/batch": { POST: batchEvaluations },
  "/metrics": { GET: metricsExposition },
  "/openapi.json": { GET: openApiDescription },
};

/** The paths the server answers, for tools that must agree with it (deployment probes). */
export const ROUTE_PATHS: readonly string[] = [...Object.keys(ROUTES), ...Object.keys(EXPLORER_ROUTES)];

/**
 * The rule server (DECISIONS.md, Embedding): not listening until `listen()`. The rules being
 * served are one immutable snapshot; a reload builds a new one and swaps it in one step, or keeps
 * the previous one.
 */
export class RuleServer {
  private readonly logger: Logger;
  private readonly token: BearerToken;
  private operators: CustomOperators;
  private readonly evaluator: RulesetEvaluator;
  private readonly workerPool: WorkerPool | undefined;
  private generation = 0;
  private snapshot: RulesSnapshot | undefined;
  private server: Server<undefined> | undefined;
  private draining = false;
  private drained: Promise<void> | undefined;
  /** The hash of the rules directory at the last load attempted (start-up, SIGHUP or schedule). */
  private lastAttemptedHash: string | undefined;
  private refreshTimer: RefreshTimer | undefined;
  private readonly metrics: ServerMetrics;
  /** With RULE_SERVER_PROCESSES above 1, in the supervisor: the port its serving processes share. */
  private supervisedPort: number | undefined;
  private lastReload: LastReload | undefined;
  /** The latest reload; the next one starts after it (it never rejects). */
  private reloads: Promise<unknown> = Promise.resolve();
  private readonly hostname: string | undefined;
  private readonly batchLimits: BatchLimits;
  private readonly records: DecisionRecords | undefined;

  private get schemaEnforcement(): SchemaEnforcement {
    return this.options.schemaEnforcement ?? "warn";
  }

  /** `role`: one process of several (RULE_SERVER_PROCESSES above 1), the supervisor or a serving process. */
  constructor(
    private readonly options: ServerOptions,
    private readonly role?: ProcessRole,
  ) {
    this.metrics = role?.metrics ?? new ServerMetrics(() => this.snapshot);
    const token = options.token === "" ? undefined : options.token;
    if (token === undefined && options.allowOpen !== true) {
      throw new ConfigurationError([
        "a token is required: pass the token option, or allowOpen: true to serve every endpoint without one",
      ]);
    }
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
    this.hostname = options.hostname === undefined ? undefined : listenHost(options.hostname);
    if (options.schemaEnforcement !== undefined && !isSchemaEnforcement(options.schemaEnforcement))
      throw new ConfigurationError([
        `schemaEnforcement must be off, warn or reject, got ${JSON.stringify(options.schemaEnforcement)}`,
      ]);
    this.batchLimits = batchLimitsOf(options);
    if (options.hostname !== undefined && this.hostname === undefined)
      throw new ConfigurationError([
        `hostname must be an IP address or a host name, got ${JSON.stringify(options.hostname)}`,
      ]);
    if (workers > 0 && options.operators && !options.operatorsModule) {
      throw new ConfigurationError([
        "with workers, custom operators must come from operatorsModule: functions cannot cross threads",
      ]);
    }
    this.logger = new Logger(options.log);
    this.token = new BearerToken(token);
    this.operators = customOperatorsFrom(options.operators);
    this.records = DecisionRecords.of(options, this.logger, this.metrics);
    this.workerPool =
      workers > 0
        ? new WorkerPool(
            workers,
            options.evaluationTimeoutMs ?? 5000,
            options.operatorsModule,
            this.logger,
            (reason) => this.metrics.countWorkerReplacement(reason),
            this.schemaEnforcement,
            this.records?.mask,
          )
        : undefined;
    this.evaluator = this.workerPool ?? eventLoopEvaluator(this.schemaEnforcement, this.records?.mask);
  }

  /** The port the server listens on (the real one when 0 was asked for). */
  get port(): number | undefined {
    return this.server?.port ?? this.supervisedPort;
  }

  get rulesDir(): string {
    return this.options.rulesDir ?? "./rules";
  }

  /** Loads the rules and starts listening; throws SnapshotError when the rules cannot be served. */
  async listen(): Promise<{ port: number }> {
    if (this.server) return { port: this.server.port! };
    // A serving process says nothing its supervisor has said already: the token, the rules.
    if (
      this.role?.serving === undefined &&
      this.options.token !== undefined &&
      this.options.token !== "" &&
      this.options.token.length < MIN_TOKEN_LENGTH
    ) {
      this.logger.warn(
        `the token is shorter than ${MIN_TOKEN_LENGTH} characters: anyone who can reach the server may guess it; use a long random one (openssl rand -hex 32)`,
        { length: this.options.token.length },
      );
    }
    if (this.options.operatorsModule && !this.options.operators)
      this.operators = customOperatorsFrom((await import(this.options.operatorsModule)).operators);
    this.lastAttemptedHash = this.hashForSchedule();
    this.snapshot =
      this.role?.serving?.rules ??
      loadSnapshot(this.rulesDir, this.operators, ++this.generation, new Date(), this.options.runTests === true);
    if (this.role?.serving === undefined) this.warnAboutSnapshot(this.snapshot);
    await this.workerPool?.start(this.snapshot);
    if (this.role?.supervisor !== undefined) return this.supervise(this.role.supervisor, this.snapshot);
    const context = (
      params: Record<string, string>,
      logFields: Record<string, unknown>,
      identity: RequestIdentity,
    ): RouteContext => ({
      snapshot: this.snapshot!,
      token: this.token,
      draining: this.draining,
      logger: this.logger,
      evaluator: this.evaluator,
      metrics: this.metrics,
      batchLimits: this.batchLimits,
      records: this.records,
      lastReload: this.lastReload,
      params,
      logFields,
      identity,
    });
    const services: RequestServices = { logger: this.logger, metrics: this.metrics, isDraining: () => this.draining };
    this.server = Bun.serve({
      port: this.options.port ?? 8080,
      ...(this.hostname === undefined ? {} : { hostname: this.hostname }),
      // Several serving processes share the port; the kernel spreads connections over them.
      ...(this.role?.serving === undefined ? {} : { reusePort: true }),
      routes: buildRouteTable(
        this.options.explorer === false ? ROUTES : { ...ROUTES, ...EXPLORER_ROUTES },
        context,
        services,
      ),
      fetch: notFoundHandler(services),
      error: () => new Response(null, { status: 500 }),
    });
    this.logger.info(
      this.role?.serving === undefined ? "listening" : "serving process listening",
      this.listeningFields(this.server.port!, this.snapshot.rulesets.size, this.options.workers ?? 0),
    );
    this.startRefresh();
    return { port: this.server.port! };
  }

  /**
   * The supervisor of several processes: they listen, with the rules loaded here; this process
   * checks the files on schedule and decides every reload. Its `listening` line comes once all listen.
   */
  private async supervise(supervision: Supervision, snapshot: RulesSnapshot): Promise<{ port: number }> {
    const port = await supervision.start(snapshot);
    this.supervisedPort = port;
    this.logger.info("listening", {
      ...this.listeningFields(port, snapshot.rulesets.size, supervision.workers),
      processes: supervision.processes,
    });
    this.startRefresh();
    return { port };
  }

  /** What a `listening` line says, alone or as a supervisor. */
  private listeningFields(port: number, rulesets: number, workers: number): Record<string, unknown> {
    return {
      // Without a host Bun reports "localhost" while it listens on every interface: say what it does.
      host: this.hostname ?? "*",
      port,
      auth: this.token.open ? "open" : "token",
      rulesets,
      workers,
      refresh: this.options.refresh?.mode ?? "manual",
    };
  }

  /** A scheduled check: reload only when the directory's contents differ from the last load attempted. */
  async checkForChanges(trigger: "interval" | "cron"): Promise<ReloadOutcome | undefined> {
    const hash = rulesDirectoryHash(this.rulesDir);
    if (hash === this.lastAttemptedHash) return undefined;
    return this.reload(trigger, hash);
  }

  /** The directory's hash, which only a refresh schedule compares; manual mode never reads it. */
  private hashForSchedule(): string | undefined {
    return (this.options.refresh?.mode ?? "manual") === "manual" ? undefined : rulesDirectoryHash(this.rulesDir);
  }

  private startRefresh(): void {
    const refresh = this.options.refresh ?? { mode: "manual" };
    if (refresh.mode === "manual") return;
    const nextDelay =
      refresh.mode === "interval" ? () => refresh.intervalMs : cronDelay(refresh.expression, refresh.timeZone);
    this.refreshTimer = new RefreshTimer(nextDelay, () => void this.checkForChanges(refresh.mode));
    this.refreshTimer.start();
  }

  /** Builds a new snapshot and swaps it in, or keeps serving the previous one and says why. */
  reload(trigger: ReloadTrigger = "api", hash?: string): Promise<ReloadOutcome> {
    // One at a time: a reload takes effect once the workers have loaded its snapshot, and they
    // keep two, the one served and the next, so a second must not send a third before the swap.
    const outcome = this.reloads.then(() => this.reloadNow(trigger, hash));
    this.reloads = outcome;
    return outcome;
  }

  /**
   * A serving process of several takes what its supervisor decided: new rules with their reload,
   * or a refused reload (no rules: nothing changes but `lastReload`). No line is logged, nothing
   * counted: the supervisor does both, once for the whole server.
   */
  async adopt(lastReload: LastReload, next?: RulesSnapshot): Promise<void> {
    if (next !== undefined) {
      await this.evaluator.useSnapshot(next);
      this.snapshot = next;
    }
    this.lastReload = lastReload;
  }

  private async reloadNow(trigger: ReloadTrigger, hash: string | undefined): Promise<ReloadOutcome> {
    // Every load counts as an attempt, so a schedule does not load the same files again.
    this.lastAttemptedHash = hash ?? this.hashForSchedule();
    try {
      const next = loadSnapshot(
        this.rulesDir,
        this.operators,
        ++this.generation,
        new Date(),
        this.options.runTests === true,
      );
      // Workers get the new snapshot before any request can name it; evaluations under way finish on the old one.
      await this.evaluator.useSnapshot(next);
      const lastReload: LastReload = { at: next.loadedAt, trigger, outcome: "reloaded" };
      // With several processes the reload is done once every serving process has the new rules.
      await this.role?.supervisor?.share(lastReload, next);
      this.snapshot = next;
      this.lastReload = lastReload;
      this.metrics.countReload(trigger, "reloaded");
      this.logger.info("rules reloaded", { trigger, rulesets: next.rulesets.size, loadedAt: next.loadedAt });
      this.warnAboutSnapshot(next);
      return { reloaded: true, rulesets: next.rulesets.size };
    } catch (caught) {
      // Whatever went wrong, the previous rules keep being served: a reload never takes the server down.
      const error =
        caught instanceof SnapshotError
          ? caught
          : new SnapshotError([
              { code: "RELOAD_FAILED", message: caught instanceof Error ? caught.message : String(caught) },
            ]);
      this.lastReload = refusedReload(new Date(), trigger, error.problems, this.rulesDir);
      void this.role?.supervisor?.share(this.lastReload);
      this.metrics.countReload(trigger, "refused");
      this.logger.warn("reload refused, still serving the previous rules", {
        trigger,
        reason: error.message,
        problems: error.problems,
      });
      return { reloaded: false, error };
    }
  }

  /**
   * Graceful shutdown: readiness answers 503 at once, service goes on for the drain period, then
   * no new connections are accepted and in-flight requests finish.
   */
  drain(): Promise<void> {
    if (this.drained) return this.drained;
    this.draining = true;
    this.refreshTimer?.stop();
    this.logger.info("draining", { seconds: this.options.drainSeconds ?? 5 });
    this.drained = new Promise<void>((resolve) => setTimeout(resolve, (this.options.drainSeconds ?? 5) * 1000))
      // One turn for I/O first: requests that arrived while the event loop was busy are read (and
      // then finish) rather than cut, since stopping closes connections whose requests are unread.
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => this.server?.stop(false))
      .then(() => this.evaluator.close())
      // Every request answered has its record written before the process may exit.
      .then(() => this.records?.sink.close())
      .then(() => this.logger.info("drained, stopped serving"));
    return this.drained;
  }

  /** Stops at once: open connections are closed, in-flight requests are cut. */
  async stop(): Promise<void> {
    this.draining = true;
    this.refreshTimer?.stop();
    await this.server?.stop(true);
    await this.evaluator.close();
    this.records?.sink.close();
    this.logger.info("stopped serving, requests in flight were cut");
  }

  /** SIGUSR1: the records file is opened again, so that logrotate can move the old one away; the log says what came of it. */
  reopenDecisionRecords(): void {
    if (this.records === undefined) this.logger.info("decision records are off: nothing to reopen");
    else this.records.reopen();
  }

  /** Warnings a person should see whenever rules are (re)loaded: nothing to serve, or operators missing. */
  private warnAboutSnapshot(snapshot: RulesSnapshot): void {
    // A server that is "ready" with nothing to evaluate is usually a RULES_DIR pointing at the wrong folder.
    if (snapshot.rulesets.size === 0)
      this.logger.warn("no ruleset in the rules directory; every evaluation will be answered 404", {
        rulesDir: resolve(this.rulesDir),
      });
    for (const missing of snapshot.missingOperators) {
      this.logger.warn("custom operators are not registered; rules that need them fail closed", {
        ruleset: missing.ruleset,
        operators: missing.operators,
      });
    }
    if (this.schemaEnforcement === "off") return;
    for (const [id, served] of snapshot.rulesets) {
      const entities = served.ruleset.entitiesWithoutSchema();
      if (entities.length > 0)
        this.logger.warn("entities without a schema: requests for them are checked for entity and operation only", {
          ruleset: id,
          entities,
        });
    }
  }
}

/** Creates a server that is not yet listening. Throws ConfigurationError without a token or allowOpen. */
export function createServer(options: ServerOptions): RuleServer {
  return new RuleServer(options);
}
