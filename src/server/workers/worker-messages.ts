/**
 * Messages between the server and its evaluation workers. All are strings, which Bun passes
 * between threads without a structured clone: a JSON header, and for results a second line
 * holding the result's JSON exactly as the client receives it.
 */
export type ToWorker =
  | { readonly kind: "init"; readonly operatorsModule?: string }
  | { readonly kind: "snapshot"; readonly generation: number; readonly bundles: readonly unknown[] }
  | { readonly kind: "evaluate"; readonly job: number; readonly generation: number; readonly ruleset: string; readonly channel: string; readonly request: unknown };

export type FromWorker =
  | { readonly kind: "ready" }
  | { readonly kind: "failed"; readonly message: string }
  | { readonly kind: "result"; readonly job: number; readonly decision: string }
  | { readonly kind: "error"; readonly job: number; readonly message: string };

/** A result message: the header line, then the result body. */
export function resultMessage(job: number, decision: string, body: string): string {
  return `${JSON.stringify({ kind: "result", job, decision })}\n${body}`;
}

export function readWorkerMessage(text: string): { header: FromWorker; body: string } {
  const newline = text.indexOf("\n");
  return newline === -1 ? { header: JSON.parse(text), body: "" } : { header: JSON.parse(text.slice(0, newline)), body: text.slice(newline + 1) };
}
