import type { Server } from "bun";
import { type BatchLimits, batchLimitsOf } from "../config/batch-limits.ts";
import type { ServerOptions } from "../config/server-options.ts";
import { DecisionRecords } from "../evaluation/decision-records.ts";
import { eventLoopEvaluator, type RulesetEvaluator } from "../evaluation/ruleset-evaluator.ts";
import type { Logger } from "../logging/logger.ts";
import type { Clock } from "../refresh/clock.ts";
import type { ServerMetrics } from "../metrics/server-metrics.ts";
import { batchEvaluations } from "../routes/batch-evaluation-route.ts";
import { evaluations } from "../routes/evaluation-route.ts";
import { EXPLORER_ROUTES } from "../routes/explorer-route.ts";
import { health, readiness } from "../routes/health-routes.ts";
import { bundle, manifest, ruleDetails } from "../routes/manifest-route.ts";
import { metricsExposition } from "../routes/metrics-route.ts";
import { openApiDescription } from "../routes/openapi-route.ts";
import { rulesetList } from "../routes/ruleset-list-route.ts";
import type { LastReload } from "../snapshot/last-reload.ts";
import type { RulesSnapshot } from "../snapshot/rules-snapshot.ts";
import { WorkerPool } from "../workers/worker-pool.ts";
import type { BearerToken } from "./bearer-token.ts";
import type { RequestIdentity } from "./request-id.ts";
import type { RouteContext } from "./route-context.ts";
import { buildRouteTable, notFoundHandler, type RequestServices, type RouteDefinition } from "./router.ts";

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

/** What the HTTP service needs from the process it runs in. */
export interface HttpServiceParts {
  readonly options: ServerOptions;
  readonly logger: Logger;
  readonly token: BearerToken;
  readonly metrics: ServerMetrics;
  /** What `/metrics` answers: this process's counts, or (a serving process of several) the whole server's. */
  readonly exposition: () => string | Promise<string>;
  /** Several serving processes share the port; the kernel spreads connections over them. */
  readonly reusePort: boolean;
  /** Times the drain period. */
  readonly clock: Clock;
}

/**
 * The server's HTTP face, for the processes that answer requests (a lone server, or each serving
 * process of several): the route table, the evaluator (the event loop or a worker pool), decision
 * records and the drain. It serves the rules it is given and never loads any itself.
 */
export class HttpService {
  private readonly evaluator: RulesetEvaluator;
  private readonly workerPool: WorkerPool | undefined;
  private readonly records: DecisionRecords | undefined;
  private readonly batchLimits: BatchLimits;
  private server: Server<undefined> | undefined;
  private snapshot: RulesSnapshot | undefined;
  private lastReload: LastReload | undefined;
  private draining = false;
  private drained: Promise<void> | undefined;

  constructor(private readonly parts: HttpServiceParts) {
    const { options, logger, metrics } = parts;
    const enforcement = options.schemaEnforcement ?? "warn";
    this.batchLimits = batchLimitsOf(options);
    this.records = DecisionRecords.of(options, logger, metrics);
    const workers = options.workers ?? 0;
    this.workerPool =
      workers > 0
        ? new WorkerPool(
            workers,
            options.evaluationTimeoutMs ?? 5000,
            options.operatorsModule,
            logger,
            (reason) => metrics.countWorkerReplacement(reason),
            enforcement,
            this.records?.mask,
          )
        : undefined;
    this.evaluator = this.workerPool ?? eventLoopEvaluator(enforcement, this.records?.mask);
  }

  /** The rules being served; undefined before `listen`. */
  get rules(): RulesSnapshot | undefined {
    return this.snapshot;
  }

  get port(): number | undefined {
    return this.server?.port;
  }

  /** Starts the evaluator with the rules, then listens; resolves with the port (the real one when 0 was asked for). */
  async listen(snapshot: RulesSnapshot, port: number, hostname: string | undefined): Promise<number> {
    if (this.server) return this.server.port!;
    await this.workerPool?.start(snapshot);
    this.snapshot = snapshot;
    const { logger, metrics, token } = this.parts;
    const context = (
      params: Record<string, string>,
      logFields: Record<string, unknown>,
      identity: RequestIdentity,
    ): RouteContext => ({
      snapshot: this.snapshot!,
      token,
      draining: this.draining,
      logger,
      evaluator: this.evaluator,
      metrics,
      exposition: this.parts.exposition,
      batchLimits: this.batchLimits,
      records: this.records,
      lastReload: this.lastReload,
      params,
      logFields,
      identity,
    });
    const services: RequestServices = { logger, metrics, isDraining: () => this.draining };
    const routes = this.parts.options.explorer === false ? ROUTES : { ...ROUTES, ...EXPLORER_ROUTES };
    this.server = Bun.serve({
      port,
      ...(hostname === undefined ? {} : { hostname }),
      ...(this.parts.reusePort ? { reusePort: true } : {}),
      routes: buildRouteTable(routes, context, services),
      fetch: notFoundHandler(services),
      error: () => new Response(null, { status: 500 }),
    });
    return this.server.port!;
  }

  /**
   * Serves new rules from now on (with `next`: the evaluator has them before any request can name
   * them, and evaluations under way finish on the old ones), and `/readyz` reports `lastReload`.
   * Without `next`, a refused reload: the rules stay, `/readyz` says why.
   */
  async useRules(lastReload: LastReload, next?: RulesSnapshot): Promise<void> {
    if (next !== undefined) {
      await this.evaluator.useSnapshot(next);
      this.snapshot = next;
    }
    this.lastReload = lastReload;
  }

  /**
   * Graceful shutdown: readiness answers 503 at once, service goes on for the drain period, then
   * no new connections are accepted and in-flight requests finish.
   */
  drain(): Promise<void> {
    if (this.drained) return this.drained;
    this.draining = true;
    const seconds = this.parts.options.drainSeconds ?? 5;
    this.drained = new Promise<void>((resolve) => this.parts.clock.after(seconds * 1000, resolve))
      // One turn for I/O first: requests that arrived while the event loop was busy are read (and
      // then finish) rather than cut, since stopping closes connections whose requests are unread.
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => this.server?.stop(false))
      .then(() => this.evaluator.close())
      // Every request answered has its record written before the process may exit.
      .then(() => this.records?.sink.close());
    return this.drained;
  }

  /** Stops at once: open connections are closed, in-flight requests are cut. */
  async stop(): Promise<void> {
    this.draining = true;
    await this.server?.stop(true);
    await this.evaluator.close();
    this.records?.sink.close();
  }

  /** SIGUSR1: the records file is opened again, so that logrotate can move the old one away. */
  reopenDecisionRecords(): void {
    if (this.records === undefined) this.parts.logger.info("decision records are off: nothing to reopen");
    else this.records.reopen();
  }
}
