import { requestTracer } from "../../tracing/request-tracing.ts";
import type { Tracer } from "../../tracing/tracer.ts";
import { ENGINE_NAME, ENGINE_VERSION } from "../../version.ts";
import type { Server, ServeOptions } from "bun";
import { type BatchLimits, batchLimitsOf } from "../config/batch-limits.ts";
import type { ServerOptions } from "../config/server-options.ts";
import { DecisionRecords } from "../evaluation/decision-records.ts";
import { eventLoopEvaluator, type RulesetEvaluator } from "../evaluation/ruleset-evaluator.ts";
import type { Logger } from "../logging/logger.ts";
import type { Clock } from "../refresh/clock.ts";
import type { ServerMetrics } from "../metrics/server-metrics.ts";
import { batchEvaluations } from "../routes/batch-evaluation-route.ts";
import { evaluations } from "../routes/evaluation-route.ts";
import { plans } from "../routes/plan-route.ts";
import { EXPLORER_ROUTES } from "../routes/explorer-route.ts";
import { health, readiness } from "../routes/health-routes.ts";
import { bundle, manifest, ruleDetails } from "../routes/manifest-route.ts";
import { metricsExposition } from "../routes/metrics-route.ts";
import { openApiDescription } from "../routes/openapi-route.ts";
import { rulesetList } from "../routes/ruleset-list-route.ts";
import type { LastReload } from "../snapshot/last-reload.ts";
import type { RulesSnapshot } from "../snapshot/rules-snapshot.ts";
import { portInUse } from "./port-check.ts";
import type { TlsMaterial } from "../tls/tls-material.ts";
import { WorkerPool } from "../workers/worker-pool.ts";
import type { Authenticator } from "../auth/authenticator.ts";
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
  "/plans": { POST: plans },
  "/metrics": { GET: metricsExposition },
  "/openapi.json": { GET: openApiDescription },
};

/** The paths the server answers, for tools that must agree with it (deployment probes). */
export const ROUTE_PATHS: readonly string[] = [...Object.keys(ROUTES), ...Object.keys(EXPLORER_ROUTES)];

/** What the HTTP service needs from the process it runs in. */
export interface HttpServiceParts {
  readonly options: ServerOptions;
  readonly logger: Logger;
  /** Who a request comes from and what it may do. */
  readonly auth: Authenticator;
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
  private readonly tracer: Tracer | undefined;
  private server: Server<undefined> | undefined;
  /** What every listener is made with but its TLS: a rotation listens anew with the same routes. */
  private listenOptions: ServeOptions | undefined;
  private tls: TlsMaterial | undefined;
  /** The route table and fallback of a listener, its answers marked `Connection: close` while `closing`. */
  private handlers: ((closing: () => boolean) => Pick<ServeOptions, "routes" | "fetch">) | undefined;
  /** Listeners of certificates rotated away, until they stop (useTls). */
  private readonly retiring = new Set<Server<undefined>>();
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
    this.tracer =
      options.tracing === undefined
        ? undefined
        : requestTracer(
            options.tracing,
            { name: ENGINE_NAME, version: ENGINE_VERSION },
            {
              dropped: (reason, count) => metrics.countDroppedSpans(reason, count),
              exported: (count) => metrics.countExportedSpans(count),
              failing: (reason) =>
                logger.warn("spans cannot be exported; they are dropped until the collector answers", {
                  endpoint: options.tracing!.endpoint,
                  reason,
                }),
              recovered: () => logger.info("spans are exported again", { endpoint: options.tracing!.endpoint }),
            },
          );
  }

  /** The rules being served; undefined before `listen`. */
  get rules(): RulesSnapshot | undefined {
    return this.snapshot;
  }

  get port(): number | undefined {
    return this.server?.port;
  }

  /**
   * Starts the evaluator with the rules, then listens (HTTPS with `tls`); resolves with the port
   * (the real one when 0 was asked for).
   */
  async listen(
    snapshot: RulesSnapshot,
    port: number,
    hostname: string | undefined,
    tls?: TlsMaterial,
  ): Promise<number> {
    if (this.server) return this.server.port!;
    // A rotation listens anew beside the old listener (SO_REUSEPORT), which would share the port
    // with a stale server too: a lone server makes sure the port is free first, as a supervisor does.
    if (tls !== undefined && !this.parts.reusePort && port !== 0) {
      const problem = portInUse(port, hostname);
      if (problem !== undefined) throw new Error(problem);
    }
    await this.workerPool?.start(snapshot);
    this.snapshot = snapshot;
    const { logger, metrics, auth } = this.parts;
    const context = (
      params: Record<string, string>,
      logFields: Record<string, unknown>,
      identity: RequestIdentity,
    ): RouteContext => ({
      snapshot: this.snapshot!,
      auth,
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
    const routes = this.parts.options.explorer === false ? ROUTES : { ...ROUTES, ...EXPLORER_ROUTES };
    this.handlers = (closing) => {
      const services: RequestServices = {
        logger,
        metrics,
        isDraining: () => this.draining || closing(),
        ...(this.tracer === undefined ? {} : { tracer: this.tracer }),
      };
      return { routes: buildRouteTable(routes, context, services), fetch: notFoundHandler(services) };
    };
    this.listenOptions = {
      port,
      ...(hostname === undefined ? {} : { hostname }),
      ...(this.parts.reusePort || tls !== undefined ? { reusePort: true } : {}),
      ...this.handlers(() => false),
      error: () => new Response(null, { status: 500 }),
    } as ServeOptions;
    this.tls = tls;
    this.server = Bun.serve(withTls(this.listenOptions, tls));
    return this.server.port!;
  }

  /**
   * New certificates for new connections (SIGHUP). Bun cannot change a listener's certificates
   * (its `reload` ignores `tls`), so a listener with the new ones opens on the same port beside the
   * old one, and the old one retires as a drain does: its answers say `Connection: close`, so that
   * clients keeping connections move to the new one, and once it is quiet it stops, letting its
   * requests in flight finish. Connections the kernel had queued on the old listener and not yet
   * handed over are reset then, unless the kernel moves them (net.ipv4.tcp_migrate_req=1; README,
   * "Securing the API"). False when the files are the ones served already: nothing changes.
   */
  async useTls(tls: TlsMaterial): Promise<boolean> {
    const old = this.server;
    const { listenOptions, handlers } = this;
    if (old === undefined || listenOptions === undefined || handlers === undefined || this.draining) return false;
    if (tls.fingerprint === this.tls?.fingerprint) return false;
    this.server = Bun.serve(withTls({ ...listenOptions, port: old.port! } as ServeOptions, tls));
    this.tls = tls;
    const retiredAt = performance.now();
    let lastAnswer = retiredAt;
    old.reload({
      ...handlers(() => {
        lastAnswer = performance.now();
        return true;
      }),
      error: listenOptions.error,
    } as ServeOptions);
    this.retiring.add(old);
    // It stops once it has answered nothing for QUIET_MS: the connections it had are closed, and
    // clients that connected to it again (the kernel spreads new connections over both) have
    // moved on. Stopping cuts a connection accepted whose request is not read yet, so the wait
    // for quiet is what keeps a client from losing a request; RETIRING_MS bounds it.
    const stopWhenQuiet = (): void => {
      if (!this.retiring.has(old)) return;
      const now = performance.now();
      const quiet = now - lastAnswer >= QUIET_MS && old.pendingRequests === 0;
      if (!quiet && now - retiredAt < RETIRING_MS) {
        this.parts.clock.after(QUIET_MS / 4, stopWhenQuiet);
        return;
      }
      this.retiring.delete(old);
      // Not awaited: a client holding a connection open must not hold anything up.
      void old.stop(false);
    };
    this.parts.clock.after(QUIET_MS, stopWhenQuiet);
    return true;
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
      .then(() => Promise.all([this.server?.stop(false), ...this.stopRetiring(false)]))
      .then(() => this.evaluator.close())
      // Every request answered has its record written before the process may exit.
      .then(() => this.records?.sink.close())
      // And its span sent (each export within its deadline).
      .then(() => this.tracer?.flush());
    return this.drained;
  }

  /** Stops at once: open connections are closed, in-flight requests are cut. */
  async stop(): Promise<void> {
    this.draining = true;
    await Promise.all([this.server?.stop(true), ...this.stopRetiring(true)]);
    await this.evaluator.close();
    this.records?.sink.close();
  }

  private stopRetiring(closeActiveConnections: boolean): Promise<void>[] {
    const stopped = [...this.retiring].map((server) => server.stop(closeActiveConnections));
    this.retiring.clear();
    return stopped;
  }

  /** SIGUSR1: the records file is opened again, so that logrotate can move the old one away. */
  reopenDecisionRecords(): void {
    if (this.records === undefined) this.parts.logger.info("decision records are off: nothing to reopen");
    else this.records.reopen();
  }
}

/** How long a listener of rotated certificates goes without answering before it stops (see useTls). */
const QUIET_MS = 400;
/** The longest a listener of rotated certificates is kept, however busy. */
const RETIRING_MS = 10_000;

/** A listener's options with HTTPS: TLS 1.2 at least (Bun's floor), client certificates required when a client CA is given. */
function withTls(options: ServeOptions, tls: TlsMaterial | undefined): ServeOptions {
  if (tls === undefined) return options;
  const clientCertificates =
    tls.clientCa === undefined ? {} : { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true };
  return { ...options, tls: { cert: tls.cert, key: tls.key, ...clientCertificates } } as ServeOptions;
}
