import type { Logger } from "../logging/logger.ts";
import type { ServerMetrics } from "../metrics/server-metrics.ts";
import type { LastReload } from "../snapshot/last-reload.ts";
import type { RulesSnapshot } from "../snapshot/rules-snapshot.ts";
import { relayLines } from "./log-relay.ts";
import { portInUse } from "../http/port-check.ts";
import { QUICK_STOP_MS, RestartBackoff } from "./restart-backoff.ts";
import { RetiredCounts } from "./retired-counts.ts";
import { imageOf, type RulesImage } from "./rules-image.ts";
import type { TlsMaterial } from "../tls/tls-material.ts";
import { SERVING_PROCESS_VARIABLE, type FromServing, type ToServing } from "./serving-messages.ts";
import type { Member } from "./serving-member.ts";
import { ScrapeGathering } from "./scrape-gathering.ts";

/** After `stop`, how long a serving process may take to end before it is killed. */
const STOP_GRACE_MS = 10_000;
/** At start-up, how long the serving processes may take to listen (with workers, each loads the rules in each). */
const START_TIMEOUT_MS = 120_000;

/** The serving processes could not be started, or cannot keep running. */
export class ServingProcessesError extends Error {
  readonly code = "SERVING_PROCESSES_FAILED" as const;
  override readonly name = "ServingProcessesError";
}

type Phase = "starting" | "serving" | "draining" | "stopping" | "failed";

/**
 * The supervisor's serving processes (RULE_SERVER_PROCESSES above 1): it starts them with the rules
 * it loaded, shares every reload's outcome with them, drains or stops them together, starts one that
 * stopped again (with back-off, and gives up when they keep stopping right after they start), and
 * answers a scrape any of them receives with the whole server's metrics. Their log lines go out
 * through its standard output.
 */
export class ServingProcesses {
  private readonly members = new Set<Member>();
  private phase: Phase = "starting";
  private port = 0;
  private image: RulesImage | undefined;
  /** The TLS files' contents every process listens with, sent to each one that starts. */
  private tls: TlsMaterial | undefined;
  private current: RulesSnapshot | undefined;
  private lastReload: LastReload | undefined;
  private readonly backoff = new RestartBackoff();
  private readonly restartTimers = new Set<ReturnType<typeof setTimeout>>();
  private readonly retired = new RetiredCounts();
  private loadWaiters: { readonly generation: number; readonly resolve: () => void }[] = [];
  private readonly gathering = new ScrapeGathering((member, message) => this.send(member, message));
  private finish: (status: number) => void = () => undefined;
  /** Resolves once every serving process has ended after a drain or stop (0), or when the supervisor gave up (1). */
  readonly finished = new Promise<number>((resolve) => (this.finish = resolve));

  constructor(
    readonly processes: number,
    readonly workers: number,
    private readonly address: { readonly port: number; readonly hostname: string | undefined },
    private readonly logger: Logger,
    private readonly metrics: ServerMetrics,
    private readonly command: readonly string[] = servingProcessCommand(),
  ) {}

  /** The rules being served, for the metrics' gauges. */
  get served(): RulesSnapshot | undefined {
    return this.current;
  }

  /** Serving processes that listen now. */
  get running(): number {
    let count = 0;
    for (const member of this.members) if (member.listening) count++;
    return count;
  }

  async start(snapshot: RulesSnapshot, tls?: TlsMaterial): Promise<number> {
    this.image = imageOf(snapshot);
    this.tls = tls;
    this.current = snapshot;
    if (this.address.port !== 0) {
      const problem = portInUse(this.address.port, this.address.hostname);
      if (problem !== undefined) throw new ServingProcessesError(problem);
    }
    this.port = this.address.port;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new ServingProcessesError(`the serving processes did not all listen within ${START_TIMEOUT_MS / 1000} s`),
          ),
        START_TIMEOUT_MS,
      );
    });
    try {
      // With PORT=0 the first process picks the port, and the others join it there.
      this.port = await Promise.race([this.spawn().listened, late]);
      const others = Array.from({ length: this.processes - 1 }, () => this.spawn());
      await Promise.race([Promise.all(others.map((member) => member.listened)), late]);
    } catch (error) {
      this.phase = "failed";
      this.stopAll();
      await this.ended();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    this.phase = "serving";
    return this.port;
  }

  async share(lastReload: LastReload, next?: RulesSnapshot): Promise<void> {
    this.lastReload = lastReload;
    if (next === undefined) {
      this.broadcast({ kind: "refused", lastReload });
      return;
    }
    // Throws before any process has them: the reload is then refused, and nothing changes anywhere.
    const image = imageOf(next);
    this.image = image;
    this.current = next;
    this.broadcast({ kind: "rules", image, lastReload });
    await new Promise<void>((resolve) => {
      this.loadWaiters.push({ generation: image.generation, resolve });
      this.settleLoadWaiters();
    });
  }

  /** SIGHUP: every process reads its credentials and JWT key set again. */
  shareCredentials(): void {
    this.broadcast({ kind: "credentials" });
  }

  /** New certificates (SIGHUP): every process listens with them from now on, and so does every one started later. */
  shareTls(tls: TlsMaterial): void {
    this.tls = tls;
    this.broadcast({ kind: "tls", tls });
  }

  /** Every serving process drains at once (readiness 503, `Connection: close`, DRAIN_SECONDS); none is started again. */
  drain(): void {
    if (this.phase === "draining" || this.phase === "stopping" || this.phase === "failed") return;
    this.phase = "draining";
    this.cancelRestarts();
    for (const member of this.members) {
      if (member.started) this.send(member, { kind: "drain" });
      else member.child.kill("SIGKILL");
    }
    this.checkEnded();
  }

  /** Every serving process stops at once, cutting the requests in flight. */
  stop(): void {
    if (this.phase === "stopping" || this.phase === "failed") return;
    this.phase = "stopping";
    this.stopAll();
    this.checkEnded();
  }

  /** Passes a signal on to every serving process (SIGUSR1: reopen the decision records file). */
  signal(name: NodeJS.Signals): void {
    for (const member of this.members) member.child.kill(name);
  }

  private stopAll(): void {
    this.cancelRestarts();
    for (const member of this.members) {
      if (member.started) this.send(member, { kind: "stop" });
      else member.child.kill("SIGKILL");
    }
    const timer = setTimeout(() => {
      for (const member of this.members) member.child.kill("SIGKILL");
    }, STOP_GRACE_MS);
    timer.unref();
  }

  private cancelRestarts(): void {
    for (const timer of this.restartTimers) clearTimeout(timer);
    this.restartTimers.clear();
  }

  private spawn(): Member {
    let resolveListened: (port: number) => void = () => undefined;
    let rejectListened: (error: Error) => void = () => undefined;
    const listened = new Promise<number>((resolve, reject) => {
      resolveListened = resolve;
      rejectListened = reject;
    });
    // A restarted process that fails is handled where it ends, not where it would have listened.
    listened.catch(() => undefined);
    let member: Member | undefined;
    const child = Bun.spawn([...this.command], {
      env: { ...process.env, [SERVING_PROCESS_VARIABLE]: "1" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "inherit",
      serialization: "json",
      ipc: (message) => {
        if (member !== undefined) this.received(member, message as FromServing);
      },
    });
    const spawned: Member = {
      child,
      spawnedAt: performance.now(),
      started: false,
      listening: false,
      startGeneration: -1,
      loadedGeneration: -1,
      state: undefined,
      gathers: new Map(),
      listened,
      resolveListened,
      rejectListened,
      relayed: relayLines(child.stdout).catch(() => undefined),
    };
    member = spawned;
    this.members.add(spawned);
    void child.exited.then((status) =>
      this.exited(spawned, status, child.signalCode === null ? null : String(child.signalCode)),
    );
    return spawned;
  }

  private received(member: Member, message: FromServing): void {
    switch (message.kind) {
      case "hello":
        if ((this.phase !== "starting" && this.phase !== "serving") || this.image === undefined) {
          member.child.kill("SIGKILL");
          return;
        }
        member.started = true;
        member.startGeneration = this.image.generation;
        this.send(member, {
          kind: "start",
          port: this.port,
          image: this.image,
          ...(this.lastReload === undefined ? {} : { lastReload: this.lastReload }),
          ...(this.tls === undefined ? {} : { tls: this.tls }),
        });
        return;
      case "listening":
        member.listening = true;
        member.loadedGeneration = Math.max(member.loadedGeneration, member.startGeneration);
        member.resolveListened(message.port);
        this.settleLoadWaiters();
        return;
      case "loaded":
        member.loadedGeneration = Math.max(member.loadedGeneration, message.generation);
        this.settleLoadWaiters();
        return;
      case "counts":
        member.state = message.state;
        member.gathers.get(message.gather)?.();
        return;
      case "scrape":
        member.state = message.state;
        void this.answerScrape(member, message.scrape);
    }
  }

  private async exited(member: Member, status: number, signal: string | null): Promise<void> {
    // Its last lines go out before anything said about its end.
    await member.relayed;
    this.members.delete(member);
    if (member.state !== undefined) this.retired.add(member.state);
    for (const resolve of member.gathers.values()) resolve();
    const how = signal === null ? `status ${status}` : signal;
    member.rejectListened(new ServingProcessesError(`a serving process stopped before it listened (${how})`));
    this.settleLoadWaiters();
    if (this.phase === "serving") this.restart(member, status, signal);
    this.checkEnded();
  }

  private restart(member: Member, status: number, signal: string | null): void {
    const ranMs = performance.now() - member.spawnedAt;
    const decision = this.backoff.stopped(ranMs);
    if (!decision.restart) {
      this.phase = "failed";
      this.logger.fatal("serving processes keep stopping right after they start; the server stops", {
        stops: decision.quickStops,
        withinSeconds: QUICK_STOP_MS / 1000,
        lastStatus: status,
        lastSignal: signal,
      });
      this.stopAll();
      return;
    }
    this.metrics.countProcessRestart();
    this.logger.warn("a serving process stopped; another is started", {
      servingPid: member.child.pid,
      status,
      signal,
      ranSeconds: Math.round(ranMs / 100) / 10,
      restartInMs: decision.delayMs,
    });
    const timer = setTimeout(() => {
      this.restartTimers.delete(timer);
      if (this.phase === "serving") this.spawn();
    }, decision.delayMs);
    this.restartTimers.add(timer);
  }

  /** After a drain, a stop or giving up, the group has ended once its last process has. */
  private checkEnded(): void {
    if (this.phase === "starting" || this.phase === "serving" || this.members.size > 0) return;
    this.finish(this.phase === "failed" ? 1 : 0);
  }

  /** Resolves once no serving process is left (each leaves the set after its output is relayed). */
  private async ended(): Promise<void> {
    while (this.members.size > 0) await Bun.sleep(20);
  }

  /** Resolves the reloads every started process has loaded (a process still starting is counted once it listens). */
  private settleLoadWaiters(): void {
    const behind = (generation: number): boolean => {
      for (const member of this.members) if (member.started && member.loadedGeneration < generation) return true;
      return false;
    };
    this.loadWaiters = this.loadWaiters.filter((waiter) => {
      const waiting = behind(waiter.generation);
      if (!waiting) waiter.resolve();
      return waiting;
    });
  }

  private broadcast(message: ToServing): void {
    for (const member of this.members) if (member.started) this.send(member, message);
  }

  /** False when the process can no longer be told anything (it is ending). */
  private send(member: Member, message: ToServing): boolean {
    try {
      member.child.send(message);
      return true;
    } catch {
      return false;
    }
  }

  private async answerScrape(asking: Member, scrape: number): Promise<void> {
    try {
      const states = await this.gathering.states(this.members, asking, () => this.retired.state());
      this.send(asking, { kind: "exposition", scrape, text: this.metrics.renderSum(states) });
    } catch (error) {
      this.send(asking, { kind: "exposition", scrape, error: error instanceof Error ? error.message : String(error) });
    }
  }
}

/**
 * How this process is started again as a serving process: a compiled executable runs its own entry
 * point (`rule-server serve`); from source, Bun runs the same main module with the same flags.
 */
export function servingProcessCommand(): string[] {
  // A compiled executable's modules live in its embedded file system, /$bunfs/.
  const compiled = Bun.main.includes("$bunfs");
  return compiled ? [process.execPath, "serve"] : [process.execPath, ...process.execArgv, Bun.main, "serve"];
}
