import { rulesOriginOf } from "./refresh/rules-origin.ts";
import { type CustomOperators, customOperatorsFrom } from "../engine/expression/custom-operators.ts";
import { type CheckedOptions, checkOptions, warnOfShortToken } from "./config/checked-options.ts";
import type { ServerOptions } from "./config/server-options.ts";
import { RequestAuthentication } from "./auth/request-authentication.ts";
import { HttpService } from "./http/http-service.ts";
import { listeningFields } from "./logging/listening-fields.ts";
import { Logger } from "./logging/logger.ts";
import { ServerMetrics } from "./metrics/server-metrics.ts";
import { SYSTEM_CLOCK } from "./refresh/clock.ts";
import { type ReloadOutcome, RulesReloader } from "./refresh/rules-reloader.ts";
import type { ReloadTrigger } from "./snapshot/last-reload.ts";
import { TlsFilesReader } from "./tls/tls-files-reader.ts";

export type { ReloadOutcome } from "./refresh/rules-reloader.ts";
export type { ReloadTrigger } from "./snapshot/last-reload.ts";
export { ROUTE_PATHS } from "./http/http-service.ts";

/**
 * The rule server as one process (DECISIONS.md, Embedding): not listening until `listen()`. It
 * loads its rules (RulesReloader) and answers requests with them (HttpService). The rules being
 * served are one immutable snapshot; a reload builds a new one and swaps it in one step, or keeps
 * the previous one. With several processes, src/server/supervisor/ composes the same two parts
 * apart: the supervisor loads, each serving process answers.
 */
export class RuleServer {
  private readonly logger: Logger;
  private readonly checked: CheckedOptions;
  private operators: CustomOperators;
  private readonly metrics: ServerMetrics;
  private readonly http: HttpService;
  private readonly reloader: RulesReloader;
  private drained: Promise<void> | undefined;
  private tls: TlsFilesReader | undefined;
  private readonly authentication: RequestAuthentication;

  constructor(private readonly options: ServerOptions) {
    this.checked = checkOptions(options);
    this.logger = new Logger(options.log);
    this.operators = customOperatorsFrom(options.operators);
    this.metrics = new ServerMetrics(() => this.http.rules);
    const clock = options.clock ?? SYSTEM_CLOCK;
    this.authentication = new RequestAuthentication(options, this.metrics);
    this.http = new HttpService({
      options,
      logger: this.logger,
      auth: this.authentication.authenticator,
      metrics: this.metrics,
      exposition: () => this.metrics.render(),
      reusePort: false,
      clock,
    });
    this.reloader = new RulesReloader(
      {
        ...rulesOriginOf(options),
        refresh: options.refresh ?? { mode: "manual" },
        runTests: options.runTests === true,
        logger: this.logger,
        metrics: this.metrics,
        clock,
        warnsAboutSchemas: (options.schemaEnforcement ?? "warn") !== "off",
      },
      () => this.operators,
      this.http,
    );
  }

  /** The port the server listens on (the real one when 0 was asked for). */
  get port(): number | undefined {
    return this.http.port;
  }

  get rulesDir(): string {
    return this.options.rulesDir ?? "./rules";
  }

  /** Loads the rules and starts listening; throws SnapshotError when the rules cannot be served. */
  async listen(): Promise<{ port: number }> {
    if (this.http.port !== undefined) return { port: this.http.port };
    const token = this.checked.token;
    warnOfShortToken(token, this.logger);
    if (this.options.operatorsModule && !this.options.operators)
      this.operators = customOperatorsFrom((await import(this.options.operatorsModule)).operators);
    // Credentials and TLS files that do not load stop the start before any rules load (CredentialsError, TlsFilesError).
    await this.authentication.start(this.logger);
    if (this.options.tls !== undefined) this.tls = new TlsFilesReader(this.options.tls, this.logger);
    const rules = await this.reloader.load();
    const port = await this.http.listen(rules, this.options.port ?? 8080, this.checked.hostname, this.tls?.material);
    this.logger.info(
      "listening",
      listeningFields({
        hostname: this.checked.hostname,
        port,
        open: this.authentication.authenticator.open,
        rulesets: rules.rulesets.size,
        workers: this.options.workers ?? 0,
        refresh: this.options.refresh,
        tls: this.tls?.material,
      }),
    );
    this.reloader.startSchedule();
    return { port };
  }

  /** A scheduled check: reload only when the directory's contents differ from the last load attempted. */
  checkForChanges(trigger: "interval" | "cron"): Promise<ReloadOutcome | undefined> {
    return this.reloader.checkForChanges(trigger);
  }

  /** Builds a new snapshot and swaps it in, or keeps serving the previous one and says why. */
  reload(trigger: ReloadTrigger = "api"): Promise<ReloadOutcome> {
    if (trigger === "SIGHUP") {
      this.authentication.reread();
      // New TLS files serve new connections; bad ones keep the old (tls-files-reader.ts says which).
      const tls = this.tls?.reread();
      if (tls !== undefined) void this.http.useTls(tls);
    }
    return this.reloader.reload(trigger);
  }

  /**
   * Graceful shutdown: readiness answers 503 at once, service goes on for the drain period, then
   * no new connections are accepted and in-flight requests finish.
   */
  drain(): Promise<void> {
    if (this.drained) return this.drained;
    this.reloader.stopSchedule();
    this.logger.info("draining", { seconds: this.options.drainSeconds ?? 5 });
    this.drained = this.http.drain().then(() => {
      this.reloader.close();
      this.logger.info("drained, stopped serving");
    });
    return this.drained;
  }

  /** Stops at once: open connections are closed, in-flight requests are cut. */
  async stop(): Promise<void> {
    this.reloader.close();
    await this.http.stop();
    this.logger.info("stopped serving, requests in flight were cut");
  }

  /** SIGUSR1: the records file is opened again, so that logrotate can move the old one away; the log says what came of it. */
  reopenDecisionRecords(): void {
    this.http.reopenDecisionRecords();
  }
}

/** Creates a server that is not yet listening. Throws ConfigurationError without a token or allowOpen. */
export function createServer(options: ServerOptions): RuleServer {
  return new RuleServer(options);
}
