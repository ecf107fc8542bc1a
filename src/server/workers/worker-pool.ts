import type { RecordAsker } from "../evaluation/evaluation-reply.ts";
import { answerBatchItem } from "../evaluation/answer-batch-item.ts";
import type { BatchItem } from "../evaluation/batch-request.ts";
import { answerOptionsFor, evaluationFailed, refusal, type EvaluationReply } from "../evaluation/evaluation-reply.ts";
import type { RulesetEvaluator } from "../evaluation/ruleset-evaluator.ts";
import { HttpError } from "../http/http-error.ts";
import type { Logger } from "../logging/logger.ts";
import type { RulesSnapshot } from "../snapshot/rules-snapshot.ts";
import type { ExplainMode } from "../../engine/explanation/explanation.ts";
import type { SchemaEnforcement } from "../../engine/schema/request-fit.ts";
import { evaluateMessage, readMessage, replyOf, type FromWorker, type ToWorker } from "./worker-messages.ts";
import type { RecordMask } from "../../records/record-mask.ts";

/**
 * Evaluation on worker threads (RULE_SERVER_WORKERS). Each worker evaluates one request at a time,
 * in the order it was sent them. Under load a worker is sent up to PIPELINE_DEPTH jobs ahead, since
 * a thread woken once per message costs the event loop more than the evaluation itself; jobs go
 * to the least busy worker. The timeout counts from when an evaluation starts running (when the
 * one before it on its worker finished): one that outlives it is answered 503, its worker is
 * terminated and replaced, and the jobs waiting behind it go back to the front of the queue, so
 * nothing queued is lost. A worker takes jobs only once it has loaded the rules (and compiled
 * their patterns), so no deadline runs while a new worker reads them. Only workers that have
 * started (answered `init`) are ever terminated: terminating a Bun worker that is still starting
 * can bring the process down.
 */
const PIPELINE_DEPTH = 8;

/**
 * The worker's entry point. In a compiled executable (build.ts names it as an entry point) it is
 * found by its path in the project; otherwise next to this file.
 */
const WORKER_ENTRY = import.meta.url.includes("$bunfs")
  ? "./server/workers/evaluation-worker.ts"
  : new URL("./evaluation-worker.ts", import.meta.url).href;

interface Job {
  readonly id: number;
  readonly message: string;
  readonly resolve: (reply: EvaluationReply) => void;
  readonly reject: (error: Error) => void;
}

interface PooledWorker {
  readonly worker: Worker;
  /** Started, and sent the snapshots: later snapshots are sent to it as they come. */
  initialized: boolean;
  /** Has loaded a snapshot: takes jobs. */
  ready: boolean;
  /** The newest snapshot it has loaded. */
  loadedGeneration: number;
  /** Jobs sent and not answered, in order: the first one is running, the others wait behind it. */
  readonly jobs: Job[];
  /** The deadline of the running job. */
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class WorkerPool implements RulesetEvaluator {
  private readonly workers = new Set<PooledWorker>();
  private readonly queue: Job[] = [];
  /** The snapshots workers need, oldest first: the current one and the one before it. */
  private snapshots: { readonly generation: number; readonly message: string }[] = [];
  private nextJob = 1;
  private closing = false;
  private idleWaiters: (() => void)[] = [];
  /** Reloads waiting for every ready worker to have loaded their snapshot. */
  private snapshotWaiters: { readonly generation: number; readonly resolve: () => void }[] = [];

  constructor(
    private readonly size: number,
    private readonly timeoutMs: number,
    private readonly operatorsModule: string | undefined,
    private readonly logger: Logger,
    /** Told each time a worker is replaced, for the metrics. */
    private readonly onReplaced: (reason: "timeout" | "exit") => void = () => undefined,
    private readonly schemaEnforcement: SchemaEnforcement = "warn",
    /** Decision records on: the mask each worker makes records with. */
    private readonly recordMask?: RecordMask,
  ) {}

  /** Starts every worker and waits until all are ready with the snapshot; rejects when one cannot start. */
  async start(snapshot: RulesSnapshot): Promise<void> {
    this.snapshots = [{ generation: snapshot.generation, message: snapshotMessage(snapshot) }];
    await Promise.all(Array.from({ length: this.size }, () => this.spawn()));
  }

  /**
   * Sends a snapshot to every worker and resolves once each worker that takes jobs has loaded it,
   * so the server names it in evaluations only then: no deadline runs while a worker loads rules.
   */
  async useSnapshot(snapshot: RulesSnapshot): Promise<void> {
    const message = snapshotMessage(snapshot);
    this.snapshots = [...this.snapshots.slice(-1), { generation: snapshot.generation, message }];
    for (const pooled of this.workers) if (pooled.initialized) pooled.worker.postMessage(message);
    await new Promise<void>((resolve) => {
      this.snapshotWaiters.push({ generation: snapshot.generation, resolve });
      this.settleSnapshotWaiters();
    });
  }

  /** Resolves the reloads whose snapshot every ready worker has loaded (or every worker is gone). */
  private settleSnapshotWaiters(): void {
    const behind = (generation: number): boolean => {
      // Workers still starting are not counted: they take jobs only once they have the newest.
      for (const pooled of this.workers) if (pooled.ready && pooled.loadedGeneration < generation) return true;
      return false;
    };
    this.snapshotWaiters = this.snapshotWaiters.filter((waiter) => {
      const waiting = !this.closing && behind(waiter.generation);
      if (!waiting) waiter.resolve();
      return waiting;
    });
  }

  readonly inWorkers = true;

  evaluate(
    snapshot: RulesSnapshot,
    body: string,
    explain?: ExplainMode,
    asker?: RecordAsker,
  ): Promise<EvaluationReply> {
    // Who asked goes to the worker only when it makes records.
    const records = this.recordMask !== undefined;
    return new Promise((resolve, reject) => {
      const id = this.nextJob++;
      this.queue.push({
        id,
        message: evaluateMessage(id, snapshot.generation, body, explain, records ? asker : undefined),
        resolve,
        reject,
      });
      this.dispatch();
    });
  }

  /**
   * The items of a batch are jobs of their own, spread over the workers as single requests are:
   * one that outlives the timeout is answered 503 in its place, and the others are answered. An
   * item goes to its worker as the JSON text of its request, answered there as a single body.
   */
  evaluateBatch(
    snapshot: RulesSnapshot,
    items: readonly BatchItem[],
    explain?: ExplainMode,
    asker?: RecordAsker,
  ): Promise<EvaluationReply[]> {
    return Promise.all(items.map((item) => this.evaluateItem(snapshot, item, explain, asker)));
  }

  private evaluateItem(
    snapshot: RulesSnapshot,
    item: BatchItem,
    explain: ExplainMode | undefined,
    asker: RecordAsker | undefined,
  ): EvaluationReply | Promise<EvaluationReply> {
    if (item.refusal !== undefined) return refusal(item.refusal);
    let text: string;
    try {
      text = JSON.stringify(item.request);
    } catch {
      // Nested deeper than JSON.stringify goes (JSON.parse has no such limit): answered here, by
      // the function a worker runs, rather than refused for what a single request may send.
      return answerBatchItem(
        item,
        (id) => snapshot.rulesets.get(id)?.ruleset,
        answerOptionsFor(this.schemaEnforcement, this.recordMask)(explain),
        asker,
      );
    }
    return this.evaluate(snapshot, text, explain, asker).catch((error: unknown) =>
      refusal(error instanceof HttpError ? error : evaluationFailed(String(error))),
    );
  }

  /** Waits for the evaluations queued and in flight, then ends every worker. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.queue.length > 0 || this.anyBusy()) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    // Out of the set first: a worker that ends is replaced only while it is in the set.
    const ending = [...this.workers];
    this.workers.clear();
    for (const pooled of ending) if (pooled.initialized) pooled.worker.terminate();
    this.settleSnapshotWaiters();
  }

  private spawn(): Promise<void> {
    const worker = new Worker(WORKER_ENTRY);
    const pooled: PooledWorker = {
      worker,
      initialized: false,
      ready: false,
      loadedGeneration: -1,
      jobs: [],
      timer: undefined,
    };
    this.workers.add(pooled);
    return new Promise<void>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<string>) => {
        const { header, body } = readMessage<FromWorker>(event.data);
        switch (header.kind) {
          case "ready":
            // Started: now the rules. The worker takes jobs once it has loaded them, so that no
            // evaluation's deadline runs while a new worker reads its rules and starts RE2.
            for (const { message } of this.snapshots) worker.postMessage(message);
            pooled.initialized = true;
            return;
          case "loaded":
            pooled.loadedGeneration = Math.max(pooled.loadedGeneration, header.generation);
            if (pooled.ready) {
              this.settleSnapshotWaiters();
              return;
            }
            // A worker started during a reload is sent two snapshots: it takes jobs after the newer.
            if (pooled.loadedGeneration < this.snapshots.at(-1)!.generation) return;
            pooled.ready = true;
            resolve();
            this.dispatch();
            return;
          case "failed":
            this.workers.delete(pooled);
            reject(new Error(`an evaluation worker could not start: ${header.message}`));
            return;
          case "result":
            this.finish(pooled, header.job, (job) => job.resolve(replyOf(header, body)));
            return;
          case "error":
            this.finish(pooled, header.job, (job) => job.reject(evaluationFailed(header.message)));
        }
      };
      worker.addEventListener("close", () => this.lost(pooled, reject));
      worker.addEventListener("error", (event) => {
        this.logger.error("an evaluation worker failed", { error: (event as ErrorEvent).message });
        this.lost(pooled, reject);
      });
      worker.postMessage(
        JSON.stringify({
          kind: "init",
          operatorsModule: this.operatorsModule,
          schemaEnforcement: this.schemaEnforcement,
          recordMask: this.recordMask?.pointers.join(","),
        } satisfies ToWorker),
      );
    });
  }

  /** A worker of the set ended (one ended on purpose has left it): its running evaluation is answered 503 and it is replaced. */
  private lost(pooled: PooledWorker, rejectStart: (error: Error) => void): void {
    if (!this.workers.has(pooled)) return;
    this.workers.delete(pooled);
    this.settleSnapshotWaiters();
    if (pooled.timer) clearTimeout(pooled.timer);
    if (!pooled.ready) {
      rejectStart(new Error("an evaluation worker stopped while starting"));
      return;
    }
    pooled.jobs.shift()?.reject(new HttpError(503, "the worker evaluating this request stopped; try again"));
    this.requeueWaiting(pooled);
    this.onReplaced("exit");
    this.replace();
    this.dispatch();
  }

  /** The running job answered (a worker answers its jobs in the order they were sent). */
  private finish(pooled: PooledWorker, jobId: number, settle: (job: Job) => void): void {
    if (pooled.jobs[0]?.id !== jobId) return;
    const job = pooled.jobs.shift()!;
    if (pooled.timer) clearTimeout(pooled.timer);
    pooled.timer = undefined;
    // The next job on this worker starts now.
    if (pooled.jobs.length > 0) this.startDeadline(pooled);
    settle(job);
    this.dispatch();
  }

  /** Sends queued jobs to the least busy ready workers, each up to PIPELINE_DEPTH ahead. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      let least: PooledWorker | undefined;
      for (const pooled of this.workers) {
        if (!pooled.ready || pooled.jobs.length >= PIPELINE_DEPTH) continue;
        if (!least || pooled.jobs.length < least.jobs.length) least = pooled;
      }
      if (!least) break;
      const job = this.queue.shift()!;
      least.jobs.push(job);
      if (least.jobs.length === 1) this.startDeadline(least);
      least.worker.postMessage(job.message);
    }
    if (this.queue.length === 0 && !this.anyBusy()) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private anyBusy(): boolean {
    for (const pooled of this.workers) if (pooled.jobs.length > 0) return true;
    return false;
  }

  private startDeadline(pooled: PooledWorker): void {
    const running = pooled.jobs[0]!;
    pooled.timer = setTimeout(() => this.timedOut(pooled, running), this.timeoutMs);
  }

  /** The evaluation outlived the timeout: answer 503, end that worker (it is ready), start another. */
  private timedOut(pooled: PooledWorker, job: Job): void {
    if (pooled.jobs[0] !== job) return;
    pooled.jobs.shift();
    pooled.timer = undefined;
    this.workers.delete(pooled);
    this.settleSnapshotWaiters();
    pooled.worker.terminate();
    job.reject(new HttpError(503, `the evaluation took longer than ${this.timeoutMs} ms`));
    this.logger.warn("evaluation timed out; its worker is replaced", { ms: this.timeoutMs });
    this.requeueWaiting(pooled);
    this.onReplaced("timeout");
    this.replace();
    this.dispatch();
  }

  /** Jobs that waited behind the running one on a worker that is gone never started: they go first. */
  private requeueWaiting(pooled: PooledWorker): void {
    this.queue.unshift(...pooled.jobs.splice(0));
  }

  private replace(): void {
    if (this.closing) return;
    this.spawn().catch((error: Error) => {
      this.logger.error("an evaluation worker could not be replaced", { error: error.message });
      // Try again shortly rather than in a tight loop.
      setTimeout(() => this.replace(), 1000).unref?.();
    });
  }
}

function snapshotMessage(snapshot: RulesSnapshot): string {
  return JSON.stringify({
    kind: "snapshot",
    generation: snapshot.generation,
    bundles: [...snapshot.bundles.values()],
  } satisfies ToWorker);
}
