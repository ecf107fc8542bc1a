import { ENGINE_VERSION } from "../../version.ts";
import type { EvaluationSummary } from "../evaluation/evaluation-reply.ts";
import { CounterFamily, TwoLabelCounters, type CounterCell, type CounterSample } from "./counter-family.ts";
import type { MetricFamily } from "./exposition-text.ts";
import { GaugeFamily } from "./gauge-family.ts";
import { HistogramFamily, type HistogramCell, type HistogramSample } from "./histogram-family.ts";
import { processMetrics } from "./process-metrics.ts";

/** The route label of a path no route knows. */
export const UNMATCHED_ROUTE = "unmatched";

/** Request durations in seconds: from a cached manifest (well under a millisecond) to a long evaluation. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Caller label values of refused requests: enough for every named credential, bounded against a flood of JWT subjects. */
const MAX_REFUSED_CALLERS = 100;

/** Methods counted under their own name; any other is counted as `OTHER`, so a client cannot grow the label set. */
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"]);

/** What a scrape reads from the rules being served: how many rulesets, and when they were loaded (RFC 3339). */
export interface ServedRules {
  readonly rulesets: { readonly size: number };
  readonly loadedAt: string;
}

/** The counters of one route, resolved once when the route table is built. */
export class RouteMetrics {
  private readonly requests: TwoLabelCounters;

  constructor(
    requests: CounterFamily,
    private readonly duration: HistogramCell,
    route: string,
  ) {
    this.requests = new TwoLabelCounters(requests, [route]);
  }

  /** One answered request: two map lookups and three additions. */
  record(method: string, status: number, seconds: number): void {
    const cell: CounterCell = this.requests.cell(KNOWN_METHODS.has(method) ? method : "OTHER", status);
    cell.value++;
    this.duration.observe(seconds);
  }
}

/**
 * Every metric of the server (README, Metrics). Counting is done on the event loop, also with
 * workers (from each reply's header); rendering happens only when `/metrics` is scraped.
 */
export class ServerMetrics {
  /**
   * @param served the rules being served when a scrape reads the gauges (read then, never copied).
   * @param servingProcesses how many processes serve: 1, or those a supervisor runs (RULE_SERVER_PROCESSES).
   */
  constructor(
    private readonly served: () => ServedRules | undefined,
    private readonly servingProcesses: () => number = () => 1,
  ) {}

  /** A supervisor counts here the serving processes it started again; made at once, so the series exists at 0. */
  private readonly processRestarts = new CounterFamily(
    "rule_server_serving_process_restarts_total",
    "Serving processes started again after one stopped (RULE_SERVER_PROCESSES above 1).",
    [],
  );
  private readonly processRestartCell = this.processRestarts.cell([]);
  /** While a supervisor renders the sum: the resident memory of its serving processes. */
  private othersResidentBytes = 0;

  private readonly requests = new CounterFamily(
    "rule_server_requests_total",
    "HTTP requests answered, by route pattern, method and status.",
    ["route", "method", "status"],
  );
  private readonly duration = new HistogramFamily(
    "rule_server_request_duration_seconds",
    "Time from receiving a request to its answer, by route pattern.",
    ["route"],
    DURATION_BUCKETS,
  );
  private readonly evaluations = new CounterFamily(
    "rule_server_evaluations_total",
    "Evaluations that ran, by ruleset and decision.",
    ["ruleset", "decision"],
  );
  private readonly evaluationCells = new TwoLabelCounters(this.evaluations);
  private readonly withoutRules = new CounterFamily(
    "rule_server_evaluations_without_rules_total",
    "Evaluations in which no rule took part (often a misspelt entity or operation), by ruleset.",
    ["ruleset"],
  );
  private readonly requestWarnings = new CounterFamily(
    "rule_server_request_warnings_total",
    "Requests that did not fit the ruleset (schema enforcement warn or reject), by ruleset and warning code.",
    ["ruleset", "code"],
  );
  private readonly droppedSpans = new CounterFamily(
    "rule_server_trace_spans_dropped_total",
    "Spans not exported, by reason: the queue was full (queue_full) or the collector did not take their batch (export_failed).",
    ["reason"],
  );
  private readonly exportedSpans = new CounterFamily(
    "rule_server_trace_spans_exported_total",
    "Spans the collector took.",
    [],
  );
  private readonly pulls = new CounterFamily(
    "rule_server_source_pulls_total",
    "Pulls from RULES_SOURCE, by source kind (oci or server) and outcome (updated, unchanged, failed, refused).",
    ["source", "outcome"],
  );
  private readonly reloads = new CounterFamily(
    "rule_server_reloads_total",
    "Reloads attempted, by trigger and outcome (reloaded or refused).",
    ["trigger", "outcome"],
  );
  private readonly workerReplacements = new CounterFamily(
    "rule_server_worker_replacements_total",
    "Evaluation workers replaced, by reason (timeout or exit).",
    ["reason"],
  );
  private readonly recordFailures = new CounterFamily(
    "rule_server_decision_records_failed_total",
    "Decision records that could not be written: records lost (their evaluations were answered), and evaluations answered 503 because records were required and could not be written.",
    [],
  );
  private readonly refused = new CounterFamily(
    "rule_server_requests_refused_total",
    "Requests refused by authentication, by reason (unauthenticated: no valid credentials; forbidden: a caller without the scope) and caller (the credential's name or the JWT's subject; empty when unknown).",
    ["reason", "caller"],
  );
  /** Callers counted under their own name; past MAX_REFUSED_CALLERS (JWT subjects are many) under "other". */
  private readonly refusedCallers = new Set<string>();
  private readonly families: readonly MetricFamily[] = [
    this.requests,
    this.refused,
    this.duration,
    this.evaluations,
    this.withoutRules,
    this.requestWarnings,
    this.reloads,
    this.pulls,
    this.droppedSpans,
    this.exportedSpans,
    this.workerReplacements,
    this.recordFailures,
    new GaugeFamily("rule_server_rulesets", "Rulesets being served.", () => this.served()?.rulesets.size ?? 0),
    new GaugeFamily(
      "rule_server_rules_loaded_timestamp_seconds",
      "When the rules being served were loaded, in seconds since the Unix epoch.",
      () => {
        const served = this.served();
        return served === undefined ? 0 : Date.parse(served.loadedAt) / 1000;
      },
    ),
    new GaugeFamily("rule_server_build_info", "The version of rule-server; the value is always 1.", () => 1, {
      version: ENGINE_VERSION,
    }),
    this.processRestarts,
    new GaugeFamily(
      "rule_server_serving_processes",
      "Processes serving HTTP: 1, or those the supervisor runs (RULE_SERVER_PROCESSES).",
      () => this.servingProcesses(),
    ),
    ...processMetrics(() => this.othersResidentBytes),
  ];

  /** The counters of a route pattern (`/rulesets/:id/manifest`, or UNMATCHED_ROUTE). */
  route(pattern: string): RouteMetrics {
    return new RouteMetrics(this.requests, this.duration.cell([pattern]), pattern);
  }

  countEvaluation(summary: EvaluationSummary): void {
    this.evaluationCells.cell(summary.ruleset, summary.decision).value++;
    if (summary.rules === 0) this.withoutRules.cell([summary.ruleset]).value++;
  }

  /** The warnings of one request, by code (under reject, the request was refused). */
  countRequestWarnings(ruleset: string, codes: readonly string[]): void {
    for (const code of codes) this.requestWarnings.cell([ruleset, code]).value++;
  }

  /** A request refused by authentication; `caller` is empty when no credential was recognised. */
  countRefused(reason: "unauthenticated" | "forbidden", caller: string): void {
    let label = caller;
    if (caller !== "" && !this.refusedCallers.has(caller)) {
      if (this.refusedCallers.size < MAX_REFUSED_CALLERS) this.refusedCallers.add(caller);
      else label = "other";
    }
    this.refused.cell([reason, label]).value++;
  }

  countReload(trigger: string, outcome: "reloaded" | "refused"): void {
    this.reloads.cell([trigger, outcome]).value++;
  }

  countDroppedSpans(reason: "queue_full" | "export_failed", count: number): void {
    this.droppedSpans.cell([reason]).value += count;
  }

  countExportedSpans(count: number): void {
    this.exportedSpans.cell([]).value += count;
  }

  /** A pull from RULES_SOURCE: a new release loaded, the same one, a pull that failed, or a release whose load was refused. */
  countPull(source: "oci" | "server", outcome: "updated" | "unchanged" | "failed" | "refused"): void {
    this.pulls.cell([source, outcome]).value++;
  }

  countWorkerReplacement(reason: "timeout" | "exit"): void {
    this.workerReplacements.cell([reason]).value++;
  }

  countRecordFailures(records: number): void {
    this.recordFailures.cell([]).value += records;
  }

  /** The exposition text of every family. */
  render(): string {
    const lines: string[] = [];
    for (const family of this.families) family.render(lines);
    return `${lines.join("\n")}\n`;
  }

  countProcessRestart(): void {
    this.processRestartCell.value++;
  }

  /** What this process counted, as plain data another process can add to its own. */
  state(): MetricsState {
    const counters: Record<string, CounterSample[]> = {};
    const histograms: Record<string, HistogramSample[]> = {};
    for (const family of this.families) {
      if (family instanceof CounterFamily) counters[family.name] = family.samples();
      else if (family instanceof HistogramFamily) histograms[family.name] = family.samples();
    }
    return { counters, histograms, residentBytes: process.memoryUsage.rss() };
  }

  /**
   * The exposition of the whole server, from the supervisor: its own counts plus those of the
   * serving processes, label set by label set; the gauges are its own (the rules it decided, its
   * CPU time and start), but resident memory is the sum over every process.
   */
  renderSum(others: readonly MetricsState[]): string {
    const lines: string[] = [];
    this.othersResidentBytes = others.reduce((sum, state) => sum + state.residentBytes, 0);
    try {
      for (const family of this.families) {
        if (family instanceof CounterFamily)
          family.renderSum(
            lines,
            others.map((state) => state.counters[family.name] ?? []),
          );
        else if (family instanceof HistogramFamily)
          family.renderSum(
            lines,
            others.map((state) => state.histograms[family.name] ?? []),
          );
        else family.render(lines);
      }
    } finally {
      this.othersResidentBytes = 0;
    }
    return `${lines.join("\n")}\n`;
  }
}

/** The counts of one process, by family name, as a serving process sends them to its supervisor. */
export interface MetricsState {
  readonly counters: Readonly<Record<string, readonly CounterSample[]>>;
  readonly histograms: Readonly<Record<string, readonly HistogramSample[]>>;
  readonly residentBytes: number;
}
