/**
 * The batch rows of the HTTP benchmark: `POST /evaluations/batch` with 100 shop requests a batch
 * (their shared members as `defaults`), driven by wrk at 16 connections in the same rounds as the
 * single requests, and printed beside the single-request shop row as evaluations a second.
 * Targets: 300,000 evaluations a second or more on one core, p99 of a batch under 10 ms.
 */
import { median } from "../measure.ts";
import type { WrkFigures } from "./wrk.ts";

export const BATCH_ITEMS = 100;
export const BATCH_CONNECTIONS = 16;

/** A request's `ruleset`, `entity`, `operation` and `actor` as defaults; each item its own id and data. */
export function batchOf(request: Record<string, unknown>): {
  defaults: Record<string, unknown>;
  items: Record<string, unknown>[];
} {
  const { data, ...shared } = request;
  return {
    defaults: shared,
    items: Array.from({ length: BATCH_ITEMS }, (_, index) => ({ id: `order-${index + 1}`, data })),
  };
}

/** Throws unless every item of a batch's answer was evaluated: a bench of refusals measures nothing. */
export function requireEveryItemEvaluated(name: string, answer: unknown): void {
  const results = (answer as { results?: { status: number }[] }).results ?? [];
  const refused = results.filter((result) => result.status !== 200);
  if (results.length !== BATCH_ITEMS || refused.length > 0)
    throw new Error(
      `${name}: ${refused.length} of ${results.length} items were not evaluated: ${JSON.stringify(refused[0])}`,
    );
}

export interface BatchRow {
  readonly name: string;
  readonly runs: readonly WrkFigures[];
  /** Evaluations per request: 1 for single requests. */
  readonly items: number;
  readonly connections: number;
}

export function printBatchRows(rows: readonly BatchRow[]): void {
  const number = (value: number): string => Math.round(value).toLocaleString("en-US");
  console.log(
    `\nBatches of ${BATCH_ITEMS} beside single requests, same rounds and pinning; evaluations a second, median (min-max)`,
  );
  console.log(
    `Target: batches at ${number(300_000)} evaluations a second or more, p99 of a batch under 10 ms at ${BATCH_CONNECTIONS} connections.`,
  );
  console.log(
    `${"server".padEnd(52)} ${"conns".padStart(5)} ${"eval/s".padStart(9)} ${"(min-max)".padStart(19)} ${"req/s".padStart(8)} ${"p99 ms".padStart(7)} ${"CPU µs/eval".padStart(12)}`,
  );
  for (const row of rows) {
    const rates = row.runs.map((run) => run.requestsPerSecond * row.items);
    const cpu = row.runs.map((run) => run.processMicros);
    const perEvaluation = cpu.some((value) => value === undefined)
      ? "-"
      : (median(cpu as number[]) / row.items).toFixed(2);
    const non2xx = row.runs.reduce((sum, run) => sum + run.non2xx, 0);
    console.log(
      `${row.name.padEnd(52)} ${String(row.connections).padStart(5)} ${number(median(rates)).padStart(9)} ${`(${number(Math.min(...rates))}-${number(Math.max(...rates))})`.padStart(19)} ${number(median(row.runs.map((run) => run.requestsPerSecond))).padStart(8)} ${median(
        row.runs.map((run) => run.p99Ms),
      )
        .toFixed(2)
        .padStart(7)} ${perEvaluation.padStart(12)}${non2xx > 0 ? `  (${non2xx} non-2xx!)` : ""}`,
    );
  }
}
