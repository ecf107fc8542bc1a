import { HttpError } from "../http/http-error.ts";
import type { Logger } from "../logging/logger.ts";
import type { ServerMetrics } from "../metrics/server-metrics.ts";
import { recordHead } from "../../records/decision-record.ts";
import { parseRecordMask, RecordMaskError, type RecordMask } from "../../records/record-mask.ts";
import { DecisionRecordSink } from "../../records/record-sink.ts";
import { ConfigurationError, type ServerOptions } from "../config/server-options.ts";
import type { EvaluationReply } from "./evaluation-reply.ts";

/**
 * The server's decision records (RULE_SERVER_DECISION_RECORDS): where they go, the mask they are
 * made with, and whether an evaluation may be answered without one.
 */
export class DecisionRecords {
  private warned = false;
  /** The time written last, and the millisecond it is of: many records share one (see recordTime). */
  private timeText = "";
  private timeMs = Number.NaN;

  private constructor(
    readonly sink: DecisionRecordSink,
    readonly mask: RecordMask,
    private readonly required: boolean,
  ) {}

  /** Undefined when records are off; throws ConfigurationError for a mask that does not read. */
  static of(options: ServerOptions, logger: Logger, metrics: ServerMetrics): DecisionRecords | undefined {
    const setting = options.decisionRecords ?? "off";
    if (setting === "off" || setting === "") return undefined;
    let mask: RecordMask;
    try {
      mask = parseRecordMask(options.decisionMask);
    } catch (error) {
      if (error instanceof RecordMaskError) throw new ConfigurationError([error.message]);
      throw error;
    }
    let records: DecisionRecords | undefined;
    const sink = new DecisionRecordSink(setting === "stdout" ? { kind: "stdout" } : { kind: "file", path: setting }, {
      failed: (count, reason) => void records?.failed(count, reason, logger, metrics),
      recovered: () => {
        if (records !== undefined) records.warned = false;
        logger.info("decision records are written again", { records: setting });
      },
    });
    records = new DecisionRecords(sink, mask, options.decisionRecordsRequired === true);
    // A file that could not be opened at start-up failed before `records` existed: say so now.
    if (!sink.available) records.failed(0, "the records file cannot be opened", logger, metrics);
    return records;
  }

  /** Under RULE_SERVER_DECISION_RECORDS_REQUIRED, no evaluation is answered while records cannot be written. */
  requireAvailable(): void {
    if (this.required && !this.sink.available) throw new HttpError(503, "decision records cannot be written", { detail: "this server answers evaluations only with a record (RULE_SERVER_DECISION_RECORDS_REQUIRED)" });
  }

  /** Writes the record of each reply that has one. */
  write(requestId: string, replies: readonly EvaluationReply[]): void {
    const head = recordHead(this.recordTime(), requestId);
    for (const reply of replies) if (reply.record !== undefined) this.sink.write(head, reply.record);
  }

  /** Now, as ISO 8601 text: made once per millisecond rather than for every record. */
  private recordTime(): string {
    const now = Date.now();
    if (now !== this.timeMs) {
      this.timeMs = now;
      this.timeText = new Date(now).toISOString();
    }
    return this.timeText;
  }

  private failed(count: number, reason: string, logger: Logger, metrics: ServerMetrics): void {
    metrics.countRecordFailures(count);
    if (this.warned) return;
    this.warned = true;
    logger.warn("decision records cannot be written; evaluations are answered without them", { reason, required: this.required });
  }
}
