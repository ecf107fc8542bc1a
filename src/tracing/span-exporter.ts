import type { FinishedSpan } from "./finished-span.ts";
import type { SpanScope } from "./otlp-json.ts";
import { type SpanBatch, spanBatch } from "./span-batch.ts";
import type { TraceSettings } from "./trace-settings.ts";

/** What becomes of spans besides their export: counted, and a failing collector said once. */
export interface ExportObserver {
  /** Spans that were not exported: the queue was full, or their batch could not be delivered. */
  dropped(reason: "queue_full" | "export_failed", count: number): void;
  exported(count: number): void;
  /** An export failed after the last one succeeded (said once per outage, not per batch). */
  failing(reason: string): void;
  /** An export succeeded after failures. */
  recovered(): void;
}

/**
 * The batch span processor of OTLP/HTTP, off the request path: a finished span joins a bounded
 * queue (full, it is dropped and counted: a collector that is down or slow never holds a request
 * or memory), and batches are posted on a timer or as soon as one is full, one export at a time,
 * each with a deadline. `flush` posts what is queued, for the drain.
 */
export class SpanExporter {
  /** Full batches waiting for their export, then the one being filled. */
  private readonly full: SpanBatch[] = [];
  private filling: SpanBatch;
  /** Spans waiting, in every batch. */
  private queued = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private exporting: Promise<void> | undefined;
  private failed = false;

  constructor(
    private readonly settings: TraceSettings,
    private readonly scope: SpanScope,
    private readonly observer: ExportObserver,
    private readonly post: (url: string, init: RequestInit) => Promise<Response> = (url, init) => fetch(url, init),
  ) {
    this.filling = this.newBatch();
  }

  add(span: FinishedSpan): void {
    if (this.queued >= this.settings.maxQueueSize) {
      this.observer.dropped("queue_full", 1);
      return;
    }
    this.filling.add(span);
    this.queued++;
    if (this.filling.count >= this.settings.maxExportBatchSize) {
      this.full.push(this.filling);
      this.filling = this.newBatch();
      this.exportSoon();
    } else this.scheduleExport();
  }

  /**
   * Posts everything queued, for at most one export's deadline in all: a process that drains does
   * not wait on a collector that is gone. What is still queued then is dropped and counted.
   */
  async flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const deadline = Date.now() + this.settings.exportTimeoutMs;
    while (this.exporting !== undefined || this.queued > 0) {
      if (this.exporting === undefined) this.exportSoon();
      const left = deadline - Date.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = await Promise.race([
        this.exporting!.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), Math.max(0, left)))),
      ]);
      clearTimeout(timer);
      if (late) {
        if (this.queued > 0) this.observer.dropped("export_failed", this.queued);
        this.full.length = 0;
        this.filling = this.newBatch();
        this.queued = 0;
        return;
      }
    }
  }

  private newBatch(): SpanBatch {
    return spanBatch(this.settings, this.scope);
  }

  private exportSoon(): void {
    if (this.exporting !== undefined || this.queued === 0) return;
    let batch = this.full.shift();
    if (batch === undefined) {
      batch = this.filling;
      this.filling = this.newBatch();
    }
    this.queued -= batch.count;
    this.exporting = this.send(batch).finally(() => {
      this.exporting = undefined;
      if (this.full.length > 0) this.exportSoon();
      else if (this.queued > 0) this.scheduleExport();
    });
  }

  /** An export after the schedule delay, unless one is due already. */
  private scheduleExport(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.exportSoon();
    }, this.settings.scheduleDelayMs);
    // A timer for spans never keeps a process alive that has nothing else to do.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async send(batch: SpanBatch): Promise<void> {
    const { settings } = this;
    const json = settings.protocol === "http/json";
    try {
      const body = batch.body();
      const response = await this.post(settings.endpoint, {
        method: "POST",
        headers: { ...settings.headers, "Content-Type": json ? "application/json" : "application/x-protobuf" },
        body,
        signal: AbortSignal.timeout(settings.exportTimeoutMs),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status < 200 || response.status > 299) throw new Error(`the collector answered ${response.status}`);
      batch.delivered();
      this.observer.exported(batch.count);
      if (this.failed) {
        this.failed = false;
        this.observer.recovered();
      }
    } catch (error) {
      this.observer.dropped("export_failed", batch.count);
      if (!this.failed) {
        this.failed = true;
        const timedOut = error instanceof Error && error.name === "TimeoutError";
        this.observer.failing(
          timedOut
            ? `the collector did not answer within ${settings.exportTimeoutMs} ms`
            : error instanceof Error
              ? error.message
              : String(error),
        );
      }
    }
  }
}
