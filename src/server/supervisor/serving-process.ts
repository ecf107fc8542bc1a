import { NO_CUSTOM_OPERATORS } from "../../engine/expression/custom-operators.ts";
import { readEnvironment, type EnvironmentOptions } from "../config/read-environment.ts";
import { ConfigurationError } from "../config/server-options.ts";
import { HttpError } from "../http/http-error.ts";
import { Logger, type LogSink } from "../logging/logger.ts";
import {
  batchStandardOutput,
  flushStandardOutput,
  writeToStandardOutput,
} from "../../standard-output/standard-output.ts";
import { ServerMetrics } from "../metrics/server-metrics.ts";
import { checkOptions } from "../config/checked-options.ts";
import { RequestAuthentication } from "../auth/request-authentication.ts";
import { HttpService } from "../http/http-service.ts";
import { listeningFields } from "../logging/listening-fields.ts";
import { SYSTEM_CLOCK } from "../refresh/clock.ts";
import type { LastReload } from "../snapshot/last-reload.ts";
import { withPid } from "./pid-log-sink.ts";
import { snapshotOf, type RulesImage } from "./rules-image.ts";
import type { FromServing, ToServing } from "./serving-messages.ts";
import type { TlsMaterial } from "../tls/tls-material.ts";

/** How long `/metrics` waits for the supervisor's sum before answering 503. */
const SCRAPE_TIMEOUT_MS = 5000;
/** How long log lines wait to go out together: the supervisor relays each batch (log-relay.ts). */
const LOG_BATCH_MS = 20;

/**
 * A serving process (RULE_SERVER_PROCESSES above 1), started by the supervisor with an IPC channel:
 * it listens on the shared port with the rules it is sent, takes every reload's outcome from the
 * supervisor, drains or stops when told, and ends at once when the channel closes, since that means
 * the supervisor is gone (no process is left holding the port). Resolves with the exit status.
 */
export function runServingProcess(): Promise<number> {
  batchStandardOutput(LOG_BATCH_MS);
  const log = withPid(writeToStandardOutput);
  const logger = new Logger(log);
  if (process.send === undefined) {
    logger.fatal("this process was started as a serving process, but not by a rule-server supervisor");
    return Promise.resolve(1);
  }
  let options: EnvironmentOptions;
  try {
    options = readEnvironment(process.env);
  } catch (error) {
    logger.fatal("invalid configuration", {
      problems: error instanceof ConfigurationError ? error.problems : [String(error)],
    });
    return Promise.resolve(1);
  }
  return new Promise<number>((resolve) => new ServingProcess(options, log, logger, resolve).begin());
}

/**
 * A serving process is the server's HTTP service alone: it never loads rules, never reloads on a
 * schedule or a signal, and its `/metrics` is the whole server's, summed by the supervisor.
 */
class ServingProcess {
  private server: HttpService | undefined;
  private authentication: RequestAuthentication | undefined;
  private readonly metrics = new ServerMetrics(() => this.server?.rules);
  /** Messages that change what is served, one after the other. */
  private queue: Promise<void> = Promise.resolve();
  private readonly scrapes = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  private nextScrape = 0;
  private ending = false;

  constructor(
    private readonly options: EnvironmentOptions,
    private readonly log: LogSink,
    private readonly logger: Logger,
    private readonly end: (status: number) => void,
  ) {}

  begin(): void {
    process.on("message", (message) => this.received(message as ToServing));
    process.on("disconnect", () => this.orphaned());
    // Reloads are the supervisor's: a SIGHUP sent to the whole group must not end this process.
    process.on("SIGHUP", () => undefined);
    // A stop signal sent to the whole group (systemd's default, Ctrl-C) reaches this process too: it
    // drains, as the supervisor tells it to; only the supervisor's `stop` cuts the drain short.
    process.on("SIGTERM", () => this.enqueue(() => this.drain()));
    process.on("SIGINT", () => this.enqueue(() => this.drain()));
    // Passed on by the supervisor (or sent to the group by logrotate): the decision records file is opened again.
    process.on("SIGUSR1", () => this.server?.reopenDecisionRecords());
    this.send({ kind: "hello" });
  }

  private received(message: ToServing): void {
    switch (message.kind) {
      case "count":
        this.send({ kind: "counts", gather: message.gather, state: this.metrics.state() });
        return;
      case "exposition": {
        const scrape = this.scrapes.get(message.scrape);
        if (message.text !== undefined) scrape?.resolve(message.text);
        else scrape?.reject(new Error(message.error ?? "no exposition"));
        return;
      }
      case "stop":
        void this.stop();
        return;
      case "start":
        this.enqueue(() => this.start(message.port, message.image, message.lastReload, message.tls));
        return;
      case "credentials":
        this.authentication?.reread();
        return;
      case "tls":
        this.enqueue(() => this.server?.useTls(message.tls));
        return;
      case "rules":
        this.enqueue(async () => {
          const next = snapshotOf(message.image, NO_CUSTOM_OPERATORS);
          await this.server?.useRules(message.lastReload, next);
          this.send({ kind: "loaded", generation: message.image.generation });
        });
        return;
      case "refused":
        this.enqueue(() => this.server?.useRules(message.lastReload));
        return;
      case "drain":
        this.enqueue(() => this.drain());
    }
  }

  /** Runs `step` after the steps before it; a step that fails ends this process, and the supervisor starts another. */
  private enqueue(step: () => unknown): void {
    this.queue = this.queue.then(step).then(
      () => undefined,
      (error: unknown) => {
        this.logger.fatal("this serving process cannot go on", {
          error: error instanceof Error ? error.message : String(error),
        });
        this.finish(1);
      },
    );
  }

  private async start(
    port: number,
    image: RulesImage,
    lastReload: LastReload | undefined,
    tls: TlsMaterial | undefined,
  ): Promise<void> {
    if (this.ending) return;
    const rules = snapshotOf(image, NO_CUSTOM_OPERATORS);
    const { hostname } = checkOptions(this.options);
    this.authentication = new RequestAuthentication(this.options, this.metrics);
    // The supervisor has said what is wrong with the credentials, at start-up and on every SIGHUP.
    await this.authentication.start(new Logger(() => undefined));
    this.server = new HttpService({
      options: { ...this.options, log: this.log },
      logger: this.logger,
      auth: this.authentication.authenticator,
      metrics: this.metrics,
      exposition: () => this.wholeServerExposition(),
      reusePort: true,
      clock: SYSTEM_CLOCK,
    });
    const listening = await this.server.listen(rules, port, hostname, tls);
    // It says nothing its supervisor has said already (the token, the rules): only that it listens.
    this.logger.info(
      "serving process listening",
      listeningFields({
        hostname,
        port: listening,
        open: this.authentication.authenticator.open,
        rulesets: rules.rulesets.size,
        workers: this.options.workers ?? 0,
        // Only the supervisor checks the files: the schedule is its own.
        refresh: undefined,
        tls,
      }),
    );
    if (lastReload !== undefined) await this.server.useRules(lastReload);
    // Its `serving process listening` line goes out before the supervisor can say that all listen.
    await flushStandardOutput();
    this.send({ kind: "listening", port: listening });
  }

  private async drain(): Promise<void> {
    if (this.ending) return;
    if (this.server === undefined) return this.finish(0);
    this.logger.info("draining", { seconds: this.options.drainSeconds ?? 5 });
    await this.server.drain();
    this.logger.info("drained, stopped serving");
    this.finish(0);
  }

  private async stop(): Promise<void> {
    if (this.ending) return;
    await this.server?.stop();
    this.logger.info("stopped serving, requests in flight were cut");
    this.finish(0);
  }

  /** The supervisor is gone: nothing may keep the port, so the requests in flight are cut. */
  private orphaned(): void {
    if (this.ending) return;
    this.logger.warn("the supervisor is gone; this serving process stops at once");
    void (this.server?.stop() ?? Promise.resolve()).finally(() => this.finish(1));
    // Its standard output may lead nowhere now: a write that never completes must not keep it alive.
    setTimeout(() => process.exit(1), 2000).unref();
  }

  private finish(status: number): void {
    if (this.ending) return;
    this.ending = true;
    for (const scrape of this.scrapes.values()) scrape.reject(new Error("the process is ending"));
    this.end(status);
  }

  /** `/metrics` in this process: the supervisor sums every process's counts, this one's sent with the request. */
  private wholeServerExposition(): Promise<string> {
    const scrape = ++this.nextScrape;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.scrapes.delete(scrape);
        reject(new HttpError(503, "the supervisor did not sum the metrics in time; try again"));
      }, SCRAPE_TIMEOUT_MS);
      const settle =
        <T>(then: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          this.scrapes.delete(scrape);
          then(value);
        };
      const waiting = {
        resolve: settle(resolve),
        reject: settle((error: Error) =>
          reject(new HttpError(503, `the metrics of the whole server cannot be summed: ${error.message}`)),
        ),
      };
      this.scrapes.set(scrape, waiting);
      if (!this.send({ kind: "scrape", scrape, state: this.metrics.state() }))
        waiting.reject(new Error("the supervisor cannot be reached"));
    });
  }

  private send(message: FromServing): boolean {
    try {
      return process.send?.(message) ?? false;
    } catch {
      return false;
    }
  }
}
