/**
 * Two servers measured against each other while both run: started together, probed, warmed, then
 * driven in short bursts that alternate A B B A A B ..., each burst's figures kept. A server's
 * speed varies from one process to the next (where the JIT and the allocator put things) and a
 * shared machine's speed from one minute to the next; alternating short bursts between two
 * long-lived processes puts the minute's drift on both alike, and fresh pairs per round sample the
 * processes' variation. A ratio of 5% is then resolved where whole runs of one server after the
 * other vary by 10%.
 */
import { probeContender, WARMUP, type Contender } from "./contender.ts";
import { wrk, type WrkFigures } from "./wrk.ts";

/** Seconds per burst, and bursts per server in each round. */
export const BURST_SECONDS = process.env.BENCH_BURST_SECONDS ?? "2";
export const BURSTS = Number(process.env.BENCH_BURSTS ?? "6");

export async function measureAlternatingPair(
  first: Contender,
  second: Contender,
  bursts = BURSTS,
): Promise<{ first: WrkFigures[]; second: WrkFigures[] }> {
  const servers = await Promise.all([first.start(), second.start()]);
  try {
    const contenders = [first, second] as const;
    for (const [index, contender] of contenders.entries()) {
      const server = servers[index]!;
      await probeContender(contender, server);
      await wrk(`${server.url}${contender.path}`, contender.script, server.pid, WARMUP, contender.connections);
    }
    const figures: [WrkFigures[], WrkFigures[]] = [[], []];
    for (let burst = 0; burst < 2 * bursts; burst++) {
      // A B B A A B ...: each server runs as often first as second of a neighbouring pair.
      const index = (burst + (burst >> 1)) % 2;
      const contender = contenders[index]!;
      const server = servers[index]!;
      figures[index]!.push(
        await wrk(`${server.url}${contender.path}`, contender.script, server.pid, BURST_SECONDS, contender.connections),
      );
    }
    return { first: figures[0], second: figures[1] };
  } finally {
    for (const server of servers) server.stop();
  }
}

/** A round from its bursts: their mean requests per second, and CPU µs per request over all their requests (when /proc has it). */
export function pooledFigures(bursts: readonly WrkFigures[]): WrkFigures {
  const rates = bursts.map((burst) => burst.requestsPerSecond);
  const requestsPerSecond = rates.reduce((sum, rate) => sum + rate, 0) / rates.length;
  const micros = bursts.map((burst) => burst.processMicros);
  const processMicros = micros.every((value) => value !== undefined)
    ? micros.reduce((sum, value, index) => sum + value! * rates[index]!, 0) / (requestsPerSecond * rates.length)
    : undefined;
  return {
    requestsPerSecond,
    p99Ms: Math.max(...bursts.map((burst) => burst.p99Ms)),
    non2xx: bursts.reduce((sum, burst) => sum + burst.non2xx, 0),
    ...(processMicros === undefined ? {} : { processMicros }),
  };
}
