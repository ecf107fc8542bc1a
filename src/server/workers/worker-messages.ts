import type { RecordAsker } from "../evaluation/evaluation-reply.ts";
import type { ExplainMode } from "../../engine/explanation/explanation.ts";
import type { SchemaEnforcement } from "../../engine/schema/request-fit.ts";
import type { EvaluationReply, EvaluationSummary } from "../evaluation/evaluation-reply.ts";

/**
 * Messages between the server and its evaluation workers. All are strings, which Bun passes
 * between threads without a structured clone: a JSON header line, and after it, for evaluations
 * and their replies, the body exactly as the client sent it or will receive it.
 */
export type ToWorker =
  | {
      readonly kind: "init";
      readonly operatorsModule?: string;
      readonly schemaEnforcement: SchemaEnforcement;
      readonly recordMask?: string;
    }
  | { readonly kind: "snapshot"; readonly generation: number; readonly bundles: readonly unknown[] }
  | {
      readonly kind: "evaluate";
      readonly job: number;
      readonly generation: number;
      readonly explain?: ExplainMode;
      // With records on: who asked (request id, caller, trace), for its record, which the worker makes whole.
      readonly asker?: RecordAsker;
    };

export type FromWorker =
  | { readonly kind: "ready" }
  // The rules of a snapshot are loaded (and their patterns compiled): evaluations against them start at once.
  | { readonly kind: "loaded"; readonly generation: number }
  | { readonly kind: "failed"; readonly message: string }
  // The summary travels in the header, so the event loop logs and counts without reading the body.
  // With `recordLength`, the decision record's line (newline included) follows the body and a
  // newline, and is this long: the event loop cuts it off without looking for where it starts.
  | {
      readonly kind: "result";
      readonly job: number;
      readonly status: number;
      readonly ruleset?: string;
      readonly summary?: EvaluationSummary;
      readonly refusedWarnings?: readonly string[];
      readonly recordLength?: number;
    }
  | { readonly kind: "error"; readonly job: number; readonly message: string };

/** An evaluation job: the header line, then the request body as received. `asker` only with records on. */
export function evaluateMessage(
  job: number,
  generation: number,
  body: string,
  explain?: ExplainMode,
  asker?: RecordAsker,
): string {
  const header: ToWorker = { kind: "evaluate", job, generation, explain, asker };
  // JSON.stringify leaves out the members that are undefined.
  return `${JSON.stringify(header)}\n${body}`;
}

/** A reply message: the header line, then the reply body. */
export function replyMessage(job: number, reply: EvaluationReply): string {
  const header: FromWorker = {
    kind: "result",
    job,
    status: reply.status,
    ruleset: reply.ruleset,
    summary: reply.summary,
    refusedWarnings: reply.refusedWarnings,
    recordLength: reply.record?.length,
  };
  return reply.record === undefined
    ? `${JSON.stringify(header)}\n${reply.body}`
    : `${JSON.stringify(header)}\n${reply.body}\n${reply.record}`;
}

/** The reply a result message carries: its header's members, the body after it, and the record when one follows. */
export function replyOf(header: Extract<FromWorker, { kind: "result" }>, text: string): EvaluationReply {
  const { status, ruleset, summary, refusedWarnings, recordLength } = header;
  if (recordLength === undefined) return { status, body: text, ruleset, summary, refusedWarnings };
  const bodyEnd = text.length - recordLength - 1;
  return {
    status,
    body: text.slice(0, bodyEnd),
    ruleset,
    summary,
    refusedWarnings,
    record: text.slice(bodyEnd + 1),
  };
}

/** Splits a message into its header and the body after the first line (empty when there is none). */
export function readMessage<Header>(text: string): { header: Header; body: string } {
  const newline = text.indexOf("\n");
  return newline === -1
    ? { header: JSON.parse(text) as Header, body: "" }
    : { header: JSON.parse(text.slice(0, newline)) as Header, body: text.slice(newline + 1) };
}
