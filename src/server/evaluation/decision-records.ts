import { HttpError } from "../http/http-error.ts";
import type { Logger } from "../logging/logger.ts";
import type { ServerMetrics } from "../metrics/server-metrics.ts";
import { parseRecordMask, RecordMaskError, type RecordMask } from "../../records/record-mask.ts";
import { DecisionRecordSink, type RecordTarget, type RecordWriteProblem } from "../../records/record-sink.ts";
import { ConfigurationError, type ServerOptions } from "../config/server-options.ts";
import type { EvaluationReply } from "./evaluation-reply.ts";

/**
 * The server's decision records (RULE_SERVER_DECISION_RECORDS): where they go, the mask they are
 * made with, and whether an evaluation may be answered without one. While records cannot be
 * written one line says so (with the path and the system's error) and one more when they can be
 * again, rather than a line for every record lost; the metric counts every record lost.
 */
export class DecisionRecords {
  readonly sink: DecisionRecordSink;
  /** From the first failure until writing works again. */
  private failing = false;

  private constructor(
    private readonly target: RecordTarget,
    readonly mask: RecordMask,
    private readonly required: boolean,
    private readonly logger: Logger,
    private readonly metrics: ServerMetrics,
  ) {
    // A file that cannot be opened fails in here already, and is reported at once.
    this.sink = new DecisionRecordSink(target, {
      failed: (count, problem) => this.failed(count, problem),
      recovered: () => this.recovered(),
    });
  }

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
    const target: RecordTarget = setting === "stdout" ? { kind: "stdout" } : { kind: "file", path: setting };
    return new DecisionRecords(target, mask, options.decisionRecordsRequired === true, logger, metrics);
  }

  /**
   * Under RULE_SERVER_DECISION_RECORDS_REQUIRED, while records cannot be written: no evaluation is
   * answered, and the server is not ready (a load balancer takes it out). Asking tries the file
   * again, at most once a second, so readiness probes find out when it can be written again.
   */
  get refusesEvaluations(): boolean {
    return this.required && !this.sink.available;
  }

  /** Throws 503 while records are required and cannot be written; the evaluation refused counts as a record lost. */
  requireAvailable(): void {
    if (!this.refusesEvaluations) return;
    this.metrics.countRecordFailures(1);
    throw new HttpError(503, RECORDS_UNWRITABLE, {
      detail: "this server answers evaluations only with a record (RULE_SERVER_DECISION_RECORDS_REQUIRED)",
    });
  }

  /** Writes the reply's record, when it has one: its whole line, made where the evaluation ran (see recordLine). */
  write(reply: EvaluationReply): void {
    if (reply.record !== undefined) this.sink.write(reply.record);
  }

  /** SIGUSR1: the file is opened again (logrotate moved it), and the log says what came of it. */
  reopen(): void {
    if (this.target.kind === "stdout") {
      this.logger.info("decision records go to standard output: nothing to reopen", { records: "stdout" });
      return;
    }
    const wasFailing = this.failing;
    this.sink.reopen();
    if (this.sink.available) this.logger.info("decision records reopened", { path: this.target.path });
    // A failure that starts here has been logged by `failed`; one that goes on is said again.
    else if (wasFailing)
      this.logger.warn("decision records file could not be reopened", this.problemFields(this.sink.lastProblem));
  }

  private failed(count: number, problem: RecordWriteProblem): void {
    this.metrics.countRecordFailures(count);
    if (this.failing) return;
    this.failing = true;
    const fields = this.problemFields(problem);
    if (this.required)
      this.logger.error(
        "decision records cannot be written; evaluations are answered 503, and /readyz too, until they can",
        fields,
      );
    else this.logger.warn("decision records cannot be written; evaluations are answered without them", fields);
  }

  private recovered(): void {
    this.failing = false;
    this.logger.info("decision records are written again", {
      path: this.target.kind === "file" ? this.target.path : "stdout",
    });
  }

  private problemFields(problem: RecordWriteProblem): Record<string, unknown> {
    return {
      path: this.target.kind === "file" ? this.target.path : "stdout",
      step: problem.step,
      code: problem.code,
      error: problem.message,
      required: this.required,
    };
  }
}

/** The title of the 503 and the reason `/readyz` gives while records are required and cannot be written. */
export const RECORDS_UNWRITABLE = "decision records cannot be written";
