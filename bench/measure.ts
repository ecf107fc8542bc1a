/**
 * Timing for the benchmarks: runs a function for a fixed time after a warm-up and reports
 * operations per second and latency percentiles. Benchmarks print figures; they assert nothing.
 */
export interface Measurement {
  readonly name: string;
  readonly operations: number;
  readonly perSecond: number;
  readonly p50Micros: number;
  readonly p99Micros: number;
}

/** The middle value (the upper one of an even count). */
export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Runs a function for 300 ms, so that what is measured after is the JIT's compiled code. */
function warm(run: () => void): void {
  const warmUntil = performance.now() + 300;
  while (performance.now() < warmUntil) run();
}

export function measure(name: string, run: () => void, seconds = 2): Measurement {
  warm(run);
  const samples: number[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  let now = start;
  while (now < end) {
    run();
    const after = performance.now();
    samples.push(after - now);
    now = after;
  }
  return fromSamples(
    name,
    samples.map((milliseconds) => milliseconds * 1000),
  );
}

/**
 * Several functions measured against each other on this shared machine, whose speed changes from
 * one second to the next: in each round they run in turn, in blocks of `blockMs`, `blocks` times
 * over, so a change of speed falls on all alike; a block is long enough to hold the garbage
 * collections its own function causes. Returns, per round, each function's mean µs per call.
 */
export function measureInterleaved(
  runs: readonly (() => void)[],
  rounds: number,
  blockMs = 50,
  blocks = 20,
): number[][] {
  for (const run of runs) warm(run);
  const results: number[][] = [];
  for (let round = 0; round < rounds; round++) {
    const spent = runs.map(() => 0);
    const calls = runs.map(() => 0);
    for (let block = 0; block < blocks; block++) {
      for (const [index, run] of runs.entries()) {
        const start = performance.now();
        let now = start;
        let count = 0;
        while (now - start < blockMs) {
          run();
          count++;
          now = performance.now();
        }
        spent[index]! += now - start;
        calls[index]! += count;
      }
    }
    results.push(spent.map((milliseconds, index) => (milliseconds * 1000) / calls[index]!));
  }
  return results;
}

/**
 * A measurement from per-operation times in microseconds (each the mean of `perSample`
 * operations): the rate from their mean, the percentiles from their order.
 */
export function fromSamples(name: string, micros: number[], perSample = 1): Measurement {
  micros.sort((a, b) => a - b);
  const mean = micros.reduce((sum, value) => sum + value, 0) / micros.length;
  const percentile = (p: number): number => micros[Math.min(micros.length - 1, Math.floor(micros.length * p))]!;
  return {
    name,
    operations: micros.length * perSample,
    perSecond: 1e6 / mean,
    p50Micros: percentile(0.5),
    p99Micros: percentile(0.99),
  };
}

export function printTable(title: string, rows: readonly Measurement[]): void {
  console.log(`\n${title}`);
  console.log(`${"case".padEnd(44)} ${"ops/s".padStart(12)} ${"p50 µs".padStart(9)} ${"p99 µs".padStart(9)}`);
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(44)} ${Math.round(row.perSecond).toLocaleString("en-US").padStart(12)} ${row.p50Micros.toFixed(1).padStart(9)} ${row.p99Micros.toFixed(1).padStart(9)}`,
    );
  }
}
