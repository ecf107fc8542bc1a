import type { FinishedSpan, SpanAttributes } from "./finished-span.ts";
import { incomingTrace } from "./incoming-trace.ts";
import { sampled } from "./sampler.ts";
import { newSpanId, newTraceId } from "./span-ids.ts";
import type { SpanExporter } from "./span-exporter.ts";
import type { TraceSettings } from "./trace-settings.ts";

/** A span being timed. Its ids go into the log line and the decision record, sampled or not. */
export interface OpenSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
  /** Ends it: exported when sampled. `error` marks it failed (a 5xx answer). */
  end(attributes: SpanAttributes, error?: string): void;
  /** A span inside this one (a worker's evaluation, a batch's items), ended by its own `end`. */
  child(name: string): OpenSpan;
}

/**
 * Starts the server's spans: one per request, continuing the caller's trace when a valid
 * `traceparent` came (with its `tracestate`), sampled as OTEL_TRACES_SAMPLER says; an unsampled
 * span costs its ids and a timestamp, and is never queued.
 */
export class Tracer {
  constructor(
    private readonly settings: TraceSettings,
    private readonly exporter: SpanExporter,
  ) {}

  startServerSpan(name: string, traceparent: string | null, tracestate: string | null): OpenSpan {
    const incoming = incomingTrace(traceparent);
    const traceId = incoming?.traceId ?? newTraceId();
    const traceState = incoming === undefined || tracestate === null || tracestate === "" ? undefined : tracestate;
    return this.open(
      name,
      "server",
      traceId,
      incoming?.parentSpanId,
      traceState,
      sampled(this.settings.sampler, traceId, incoming),
    );
  }

  /** Exports what is queued (the drain). */
  flush(): Promise<void> {
    return this.exporter.flush();
  }

  private open(
    name: string,
    kind: FinishedSpan["kind"],
    traceId: string,
    parentSpanId: string | undefined,
    traceState: string | undefined,
    isSampled: boolean,
  ): OpenSpan {
    return new TimedSpan(this.exporter, name, kind, traceId, parentSpanId, traceState, isSampled);
  }
}

/**
 * A span from its start: a class rather than closures, since one is made for every request. Once
 * ended it is its own FinishedSpan (its batch encodes it with the next few and keeps only the
 * bytes), so ending one allocates nothing more.
 */
class TimedSpan implements OpenSpan, FinishedSpan {
  readonly spanId = newSpanId();
  readonly startMs = performance.timeOrigin + performance.now();
  endMs = 0;
  attributes: SpanAttributes = NO_ATTRIBUTES;
  error: string | undefined = undefined;

  constructor(
    private readonly exporter: SpanExporter,
    readonly name: string,
    readonly kind: FinishedSpan["kind"],
    readonly traceId: string,
    readonly parentSpanId: string | undefined,
    readonly traceState: string | undefined,
    readonly sampled: boolean,
  ) {}

  end(attributes: SpanAttributes, error?: string): void {
    if (!this.sampled) return;
    this.endMs = performance.timeOrigin + performance.now();
    this.attributes = attributes;
    this.error = error;
    this.exporter.add(this);
  }

  child(name: string): OpenSpan {
    return new TimedSpan(this.exporter, name, "internal", this.traceId, this.spanId, this.traceState, this.sampled);
  }
}

const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});
