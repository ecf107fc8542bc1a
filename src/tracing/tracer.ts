import type { FinishedSpan, SpanAttributes } from "./finished-span.ts";
import { type IncomingTrace, incomingTrace } from "./incoming-trace.ts";
import { sampled } from "./sampler.ts";
import {
  claimedBlock,
  claimedHex,
  claimSpanBytes,
  copyBytes,
  PARENT_AT,
  SPAN_AT,
  TRACE_AT,
  writeHex,
} from "./span-ids.ts";
import type { SpanExporter } from "./span-exporter.ts";
import type { TraceSettings } from "./trace-settings.ts";

/** A span being timed. Its ids go into the log line and the decision record, sampled or not. */
export interface OpenSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;
  /** Ends it: exported when sampled. `error` marks it failed (a 5xx answer); `endedAt` is performance.now() then, when the caller has it. */
  end(attributes: SpanAttributes, error?: string, endedAt?: number): void;
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

  /** `startedAt`: performance.now() when the request came, which the server reads anyway. */
  startServerSpan(
    name: string,
    traceparent: string | null,
    tracestate: string | null,
    startedAt = performance.now(),
  ): OpenSpan {
    const incoming = incomingTrace(traceparent);
    const traceState = incoming === undefined || tracestate === null || tracestate === "" ? undefined : tracestate;
    const span = new TimedSpan(this.exporter, name, "server", incoming, traceState, startedAt);
    span.sampled = sampled(this.settings.sampler, span.traceId, incoming);
    return span;
  }

  /** Exports what is queued (the drain). */
  flush(): Promise<void> {
    return this.exporter.flush();
  }
}

/**
 * A span from its start: a class rather than closures, since one is made for every request. Once
 * ended it is its own FinishedSpan (its batch encodes it with the next few and keeps only the
 * bytes), so ending one allocates nothing more. Its ids are 32 bytes it claims (span-ids.ts): a
 * new trace's, or its caller's trace and span copied there, and its own span id.
 */
class TimedSpan implements OpenSpan, FinishedSpan {
  readonly ids: Buffer;
  readonly idsAt: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  sampled = true;
  readonly startMs: number;
  endMs = 0;
  attributes: SpanAttributes = NO_ATTRIBUTES;
  error: string | undefined = undefined;

  /** `parent`: the caller's trace (a server span) or the span this one is inside (a child span); none starts a trace. */
  constructor(
    private readonly exporter: SpanExporter,
    readonly name: string,
    readonly kind: FinishedSpan["kind"],
    parent: IncomingTrace | TimedSpan | undefined,
    readonly traceState: string | undefined,
    startedAt: number,
  ) {
    this.startMs = TIME_ORIGIN + startedAt;
    const at = claimSpanBytes();
    const ids = claimedBlock();
    this.ids = ids;
    this.idsAt = at;
    this.spanId = claimedHex(at + SPAN_AT, 8);
    if (parent === undefined) {
      this.traceId = claimedHex(at + TRACE_AT, 16);
      this.parentSpanId = undefined;
      return;
    }
    this.traceId = parent.traceId;
    if (parent instanceof TimedSpan) {
      this.parentSpanId = parent.spanId;
      copyBytes(parent.ids, parent.idsAt + TRACE_AT, ids, at + TRACE_AT, 16);
      copyBytes(parent.ids, parent.idsAt + SPAN_AT, ids, at + PARENT_AT, 8);
    } else {
      this.parentSpanId = parent.parentSpanId;
      writeHex(ids, at + TRACE_AT, parent.traceId);
      writeHex(ids, at + PARENT_AT, parent.parentSpanId);
    }
  }

  end(attributes: SpanAttributes, error?: string, endedAt = performance.now()): void {
    if (!this.sampled) return;
    this.endMs = TIME_ORIGIN + endedAt;
    this.attributes = attributes;
    this.error = error;
    this.exporter.add(this);
  }

  child(name: string): OpenSpan {
    const child = new TimedSpan(this.exporter, name, "internal", this, this.traceState, performance.now());
    child.sampled = this.sampled;
    return child;
  }
}

/** When this process's clock started, in milliseconds since the epoch: it never changes, so it is read once. */
const TIME_ORIGIN = performance.timeOrigin;

const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});
