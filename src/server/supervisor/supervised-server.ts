import { rulesOriginOf } from "../refresh/rules-origin.ts";
import { writeToStandardOutput } from "../../standard-output/standard-output.ts";
import { customOperatorsFrom } from "../../engine/expression/custom-operators.ts";
import { checkOptions, type CheckedOptions, warnOfShortToken } from "../config/checked-options.ts";
import type { EnvironmentOptions } from "../config/read-environment.ts";
import { listeningFields } from "../logging/listening-fields.ts";
import { TlsFilesReader } from "../tls/tls-files-reader.ts";
import { RequestAuthentication } from "../auth/request-authentication.ts";
import { Logger, type LogSink } from "../logging/logger.ts";
import { ServerMetrics } from "../metrics/server-metrics.ts";
import { SYSTEM_CLOCK } from "../refresh/clock.ts";
import { type ReloadOutcome, RulesReloader } from "../refresh/rules-reloader.ts";
import type { ReloadTrigger } from "../snapshot/last-reload.ts";
import { withPid } from "./pid-log-sink.ts";
import { ServingProcesses } from "./serving-processes.ts";

/**
 * The server as the started process runs it when RULE_SERVER_PROCESSES is above 1: this process
 * loads, checks and reloads the rules (RulesReloader) and never listens; its serving processes
 * listen with the rules it sends them. It answers the serve command as a lone RuleServer does:
 * listen, reload, drain, stop.
 */
export class SupervisedServer {
  private readonly processes: ServingProcesses;
  private readonly reloader: RulesReloader;
  private readonly logger: Logger;
  private readonly checked: CheckedOptions;
  private drained: Promise<void> | undefined;
  private tls: TlsFilesReader | undefined;
  /** Read here to say what is wrong once; each serving process checks requests with its own. */
  private readonly authentication: RequestAuthentication;

  constructor(
    private readonly options: EnvironmentOptions,
    processes: number,
    log: LogSink = withPid(writeToStandardOutput),
  ) {
    this.checked = checkOptions(options);
    this.authentication = new RequestAuthentication(options, { countRefused: () => undefined });
    this.logger = new Logger(log);
    const metrics = new ServerMetrics(
      () => this.processes.served,
      () => this.processes.running,
    );
    this.processes = new ServingProcesses(
      processes,
      options.workers ?? 0,
      { port: options.port ?? 8080, hostname: options.hostname },
      this.logger,
      metrics,
    );
    const operators = customOperatorsFrom(options.operators);
    this.reloader = new RulesReloader(
      {
        ...rulesOriginOf(options),
        refresh: options.refresh ?? { mode: "manual" },
        runTests: options.runTests === true,
        logger: this.logger,
        metrics,
        clock: SYSTEM_CLOCK,
        warnsAboutSchemas: (options.schemaEnforcement ?? "warn") !== "off",
      },
      () => operators,
      // A reload is done once every serving process has the new rules.
      { useRules: (lastReload, next) => this.processes.share(lastReload, next) },
    );
  }

  get rulesDir(): string {
    return this.options.rulesDir ?? "./rules";
  }

  /** The port the serving processes share, once they all listen. */
  port: number | undefined;

  /** Resolves with status 1 if the serving processes keep stopping right after they start (the supervisor gives up). */
  get failed(): Promise<number> {
    return this.processes.finished.then((status) => (status === 0 ? new Promise<number>(() => undefined) : status));
  }

  /**
   * Loads the rules, then starts the serving processes with them; throws SnapshotError as
   * RuleServer.listen does, or ServingProcessesError. Its `listening` line comes once all listen.
   */
  async listen(): Promise<{ port: number }> {
    if (this.port !== undefined) return { port: this.port };
    const token = this.checked.token;
    warnOfShortToken(token, this.logger);
    // Credentials and TLS files that do not load stop the start before any rules load (CredentialsError, TlsFilesError).
    await this.authentication.start(this.logger);
    if (this.options.tls !== undefined) this.tls = new TlsFilesReader(this.options.tls, this.logger);
    const rules = await this.reloader.load();
    this.port = await this.processes.start(rules, this.tls?.material);
    this.logger.info("listening", {
      ...listeningFields({
        hostname: this.checked.hostname,
        port: this.port,
        open: this.authentication.authenticator.open,
        rulesets: rules.rulesets.size,
        workers: this.options.workers ?? 0,
        refresh: this.options.refresh,
        tls: this.tls?.material,
      }),
      processes: this.processes.processes,
    });
    this.reloader.startSchedule();
    return { port: this.port };
  }

  reload(trigger: ReloadTrigger = "api"): Promise<ReloadOutcome> {
    // SIGHUP reads the TLS files again; the processes listen anew with new ones (HttpService.useTls).
    // Each process reads its credentials and JWT key set again (this one has said what is wrong).
    if (trigger === "SIGHUP") {
      this.authentication.reread();
      this.processes.shareCredentials();
    }
    const tls = trigger === "SIGHUP" ? this.tls?.reread() : undefined;
    if (tls !== undefined) this.processes.shareTls(tls);
    return this.reloader.reload(trigger);
  }

  /** Every serving process drains at once; resolves after the last one has ended. */
  drain(): Promise<void> {
    if (this.drained) return this.drained;
    this.reloader.stopSchedule();
    this.logger.info("draining", { seconds: this.options.drainSeconds ?? 5 });
    this.processes.drain();
    this.drained = this.processes.finished.then(() => {
      this.reloader.close();
      this.logger.info("drained, stopped serving");
    });
    return this.drained;
  }

  /** Every serving process stops at once, cutting the requests in flight. */
  async stop(): Promise<void> {
    this.reloader.close();
    this.processes.stop();
    await this.processes.finished;
    this.logger.info("stopped serving, requests in flight were cut");
  }

  /** SIGUSR1 (reopen the decision records file) is for the processes that write records. */
  reopenDecisionRecords(): void {
    this.processes.signal("SIGUSR1");
  }
}
