/**
 * One server measured once under wrk: started, sent one request that must be answered 200,
 * driven for WARMUP seconds that are not counted (the figures are those of a server whose code
 * the JIT has compiled), then for SECONDS that are, and stopped. The HTTP benches measure each
 * of their servers this way, in rounds that alternate them.
 */
import { BENCH_TOKEN, type BenchServer } from "./server-processes.ts";
import { requireEveryItemEvaluated } from "./batch-figures.ts";
import { wrk, type WrkFigures } from "./wrk.ts";

export const SECONDS = process.env.BENCH_SECONDS ?? "5";
export const WARMUP = process.env.BENCH_WARMUP_SECONDS ?? "3";

export interface Contender {
  readonly name: string;
  readonly start: () => Promise<BenchServer>;
  readonly path: string;
  readonly script: string;
  /** Sent once before the run, which fails unless it is answered 200 (and, for a batch, every item too). */
  readonly probe?: unknown;
  /** Looks at the probe's answer body too, throwing when the server does not answer as the bench assumes. */
  readonly checkProbe?: (body: unknown) => void;
  /** wrk's connections: 64 unless the contender says otherwise. */
  readonly connections?: number;
  /** Evaluations each request asks for (a batch's items); single requests when absent. */
  readonly items?: number;
}

export async function measureContender(contender: Contender): Promise<WrkFigures> {
  const server = await contender.start();
  try {
    await probeContender(contender, server);
    await wrk(`${server.url}${contender.path}`, contender.script, server.pid, WARMUP, contender.connections);
    return await wrk(`${server.url}${contender.path}`, contender.script, server.pid, SECONDS, contender.connections);
  } finally {
    server.stop();
  }
}

/** Sends the contender's probe (when it has one) and throws unless the server answers as the bench assumes. */
export async function probeContender(contender: Contender, server: BenchServer): Promise<void> {
  if (contender.probe === undefined) return;
  const answer = await fetch(`${server.url}${contender.path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${BENCH_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify(contender.probe),
  });
  if (answer.status !== 200)
    throw new Error(`${contender.name}: the bench request is answered ${answer.status}: ${await answer.text()}`);
  if (contender.items !== undefined || contender.checkProbe !== undefined) {
    const body = await answer.json();
    if (contender.items !== undefined) requireEveryItemEvaluated(contender.name, body);
    contender.checkProbe?.(body);
  }
}
