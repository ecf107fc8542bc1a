/**
 * Requests per second of one request to one ruleset on a size's server, measured against the
 * example's server in the same run: each server is probed (the request must be answered 200) and
 * warmed with WARMUP seconds of wrk that do not count, then the two are driven in turn, round after
 * round and in turns of order, so that both see the same minutes of a shared machine. The ratio is the median of the
 * rounds' ratios.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../measure.ts";
import { SECONDS, WARMUP } from "../http/contender.ts";
import { BENCH_TOKEN } from "../http/server-processes.ts";
import { EXAMPLE_REQUEST, postScript } from "../http/throughput.ts";
import { wrk, type WrkFigures } from "../http/wrk.ts";

/** Five: with three, one slow minute of the shared machine moved a median by a fifth (0.71, 0.97, 0.85 at M). */
export const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 5);

export interface ServerUnderLoad {
  readonly url: string;
  readonly pid: number;
  /** The ruleset the request names. */
  readonly ruleset: string;
}

export interface ThroughputFigures {
  readonly example: readonly WrkFigures[];
  readonly sized: readonly WrkFigures[];
  /** The median of the rounds' ratios, the size's requests per second to the example's. */
  readonly ratio: number;
  readonly ratios: readonly number[];
}

export async function throughputAgainstExample(
  example: ServerUnderLoad,
  sized: ServerUnderLoad,
): Promise<ThroughputFigures> {
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-scale-wrk-"));
  try {
    const script = (server: ServerUnderLoad): string => {
      const body = { ...EXAMPLE_REQUEST, ruleset: server.ruleset };
      return postScript(scratch, server.ruleset, body);
    };
    const runs = [example, sized].map((server) => ({ server, script: script(server), figures: [] as WrkFigures[] }));
    for (const run of runs) {
      await probe(run.server);
      await wrk(`${run.server.url}/evaluations`, run.script, run.server.pid, WARMUP);
    }
    // Each round in the other order than the last: whichever goes second in a pair did better.
    for (let round = 0; round < ROUNDS; round++) {
      for (const run of round % 2 === 0 ? runs : [...runs].reverse())
        run.figures.push(await wrk(`${run.server.url}/evaluations`, run.script, run.server.pid, SECONDS));
    }
    const [exampleRuns, sizedRuns] = [runs[0]!.figures, runs[1]!.figures];
    const ratios = sizedRuns.map((run, round) => run.requestsPerSecond / exampleRuns[round]!.requestsPerSecond);
    return { example: exampleRuns, sized: sizedRuns, ratio: median(ratios), ratios };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function probe(server: ServerUnderLoad): Promise<void> {
  const answer = await fetch(`${server.url}/evaluations`, {
    method: "POST",
    headers: { Authorization: `Bearer ${BENCH_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ ...EXAMPLE_REQUEST, ruleset: server.ruleset }),
  });
  if (answer.status !== 200)
    throw new Error(`${server.ruleset}: the bench request is answered ${answer.status}: ${await answer.text()}`);
}
