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
  | { readonly kind: "evaluate"; readonly job: number; readonly generation: number; readonly explain?: ExplainMode };

export type FromWorker =
  | { readonly kind: "ready" }
  // The rules of a snapshot are loaded (and their patterns compiled): evaluations against them start at once.
  | { readonly kind: "loaded"; readonly generation: number }
  | { readonly kind: "failed"; readonly message: string }
  // The summary travels in the header, so the event loop logs and counts without reading the body.
  // With `recorded`, the decision record follows the body on a line of its own.
  | {
      readonly kind: "result";
      readonly job: number;
      readonly status: number;
      readonly ruleset?: string;
      readonly summary?: EvaluationSummary;
      readonly refusedWarnings?: readonly string[];
      readonly recorded?: true;
    }
  | { readonly kind: "error"; readonly job: number; readonly message: string };

/** An evaluation job: the header line, then the request body as received. */
export function evaluateMessage(job: number, generation: number, body: string, explain?: ExplainMode): string {
  const header: ToWorker =
    explain === undefined ? { kind: "evaluate", job, generation } : { kind: "evaluate", job, generation, explain };
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
    ...(reply.record === undefined ? {} : { recorded: true }),
  };
  // JSON texts hold no raw line break: the body ends at the last one, and the record follows it.
  return reply.record === undefined
    ? `${JSON.stringify(header)}\n${reply.body}`
    : `${JSON.stringify(header)}\n${reply.body}\n${reply.record}`;
}

/** A reply's body and, when the header says one follows, its record. */
export function replyParts(header: { readonly recorded?: true }, text: string): { body: string; record?: string } {
  if (header.recorded !== true) return { body: text };
  const newline = text.lastIndexOf("\n");
  return { body: text.slice(0, newline), record: text.slice(newline + 1) };
}

/** Splits a message into its header and the body after the first line (empty when there is none). */
export function readMessage<Header>(text: string): { header: Header; body: string } {
  const newline = text.indexOf("\n");
  return newline === -1
    ? { header: JSON.parse(text) as Header, body: "" }
    : { header: JSON.parse(text.slice(0, newline)) as Header, body: text.slice(newline + 1) };
}
