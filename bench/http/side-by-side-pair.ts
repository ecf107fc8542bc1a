/**
 * Two servers measured side by side: both on the server core, each driven by its own wrk on the
 * load core at the same time, in bursts after a shared warm-up, each burst's figures kept. The
 * scheduler shares the server core between the two busy processes, so whatever slows this shared
 * machine during a burst (another guest, the host's clock) slows both at the same moment, and the
 * ratio of their time per request cancels it. Run one after the other, even in alternating bursts,
 * two identical servers read 0.94x the time of each other (median of ten rounds; rounds 0.83-1.08x:
 * the machine's speed changes within seconds); side by side the same pair reads 1.00x (the time)
 * and 1.02x (the CPU, counted in 10 ms ticks). Which server is started and driven first is the
 * caller's to alternate between rounds.
 */
import { probeContender, type Contender } from "./contender.ts";
import { wrk, type WrkFigures } from "./wrk.ts";

/**
 * Seconds both servers are driven before a round counts: 10, not the 3 other benches wait, since
 * the figures compared here are a few percent and a server with more code on its path (a traced
 * one) still had its JIT compiler busy after 3 s (25 against 7 ticks in 5 s), and none after 13.
 */
export const SIDE_BY_SIDE_WARMUP = process.env.BENCH_WARMUP_SECONDS ?? "10";

/** Seconds per burst, and bursts in each round. */
export const BURST_SECONDS = process.env.BENCH_BURST_SECONDS ?? "2";
export const BURSTS = Number(process.env.BENCH_BURSTS ?? "6");

export async function measureSideBySide(
  first: Contender,
  second: Contender,
  bursts = BURSTS,
  warmup = SIDE_BY_SIDE_WARMUP,
): Promise<{ first: WrkFigures[]; second: WrkFigures[] }> {
  const servers = await Promise.all([first.start(), second.start()]);
  try {
    const contenders = [first, second] as const;
    for (const [index, contender] of contenders.entries()) await probeContender(contender, servers[index]!);
    const drive = (seconds: string): Promise<WrkFigures[]> =>
      Promise.all(
        contenders.map((contender, index) =>
          wrk(
            `${servers[index]!.url}${contender.path}`,
            contender.script,
            servers[index]!.pid,
            seconds,
            contender.connections,
          ),
        ),
      );
    await drive(warmup);
    const figures: [WrkFigures[], WrkFigures[]] = [[], []];
    for (let burst = 0; burst < bursts; burst++) {
      const [one, other] = await drive(BURST_SECONDS);
      figures[0].push(one!);
      figures[1].push(other!);
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
