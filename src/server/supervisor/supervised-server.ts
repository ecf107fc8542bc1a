import type { EnvironmentOptions } from "../config/read-environment.ts";
import { Logger, type LogSink } from "../logging/logger.ts";
import { writeToStandardOutput } from "../../standard-output/standard-output.ts";
import { ServerMetrics } from "../metrics/server-metrics.ts";
import { RuleServer, type ReloadOutcome, type ReloadTrigger } from "../rule-server.ts";
import { withPid } from "./pid-log-sink.ts";
import { ServingProcesses } from "./serving-processes.ts";

/**
 * The server as the started process runs it when RULE_SERVER_PROCESSES is above 1: a supervisor
 * (a RuleServer that loads, checks and reloads the rules but does not listen) and its serving
 * processes. It answers the serve command as a lone RuleServer does: listen, reload, drain, stop.
 */
export class SupervisedServer {
  private readonly processes: ServingProcesses;
  private readonly server: RuleServer;

  constructor(options: EnvironmentOptions, processes: number, log: LogSink = withPid(writeToStandardOutput)) {
    const metrics = new ServerMetrics(
      () => this.processes.served,
      () => this.processes.running,
    );
    this.processes = new ServingProcesses(
      processes,
      options.workers ?? 0,
      { port: options.port ?? 8080, hostname: options.hostname },
      new Logger(log),
      metrics,
    );
    // The supervisor evaluates nothing: workers would only take memory, and the serving processes write the decision records.
    this.server = new RuleServer(
      { ...options, workers: 0, decisionRecords: "off", log },
      { metrics, supervisor: this.processes },
    );
  }

  get rulesDir(): string {
    return this.server.rulesDir;
  }

  get port(): number | undefined {
    return this.server.port;
  }

  /** Resolves with status 1 if the serving processes keep stopping right after they start (the supervisor gives up). */
  get failed(): Promise<number> {
    return this.processes.finished.then((status) => (status === 0 ? new Promise<number>(() => undefined) : status));
  }

  /** Loads the rules, then starts the serving processes; throws as RuleServer.listen does, or ServingProcessesError. */
  listen(): Promise<{ port: number }> {
    return this.server.listen();
  }

  reload(trigger?: ReloadTrigger): Promise<ReloadOutcome> {
    return this.server.reload(trigger);
  }

  /** Every serving process drains at once; resolves after the last one has ended. */
  async drain(): Promise<void> {
    this.processes.drain();
    await Promise.all([this.server.drain(), this.processes.finished]);
  }

  /** Every serving process stops at once, cutting the requests in flight. */
  async stop(): Promise<void> {
    this.processes.stop();
    await Promise.all([this.server.stop(), this.processes.finished]);
  }

  /** SIGUSR1 (reopen the decision records file) is for the processes that write records. */
  reopenDecisionRecords(): void {
    this.processes.signal("SIGUSR1");
  }
}
