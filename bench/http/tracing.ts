/**
 * What tracing costs a request over HTTP: rule-server with no workers on the rules/ example, with
 * tracing off and with tracing on (every request sampled, spans posted as protobuf to a collector
 * stand-in in this process, which takes them and answers 200), driven by wrk as throughput.ts drives
 * it. Each round starts a fresh pair and drives both side by side (side-by-side-pair.ts), so
 * that drift on a shared machine falls on both at once; the figure is the median of the rounds'
 * ratios of time per request, and of the server's CPU per request. Target: on at most 1.10x off.
 * Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../measure.ts";
import { BURST_SECONDS, BURSTS, measureSideBySide, pooledFigures, SIDE_BY_SIDE_WARMUP } from "./side-by-side-pair.ts";
import type { Contender } from "./contender.ts";
import { startRuleServer } from "./server-processes.ts";
import { EXAMPLE_REQUEST, postScript } from "./throughput.ts";
import { PINNING, type WrkFigures } from "./wrk.ts";

const RULES = join(import.meta.dir, "..", "..", "rules");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "10");
const TARGET = 1.1;
/** always_on by default; BENCH_TRACES_SAMPLER=always_off measures spans made and logged but never exported. */
const SAMPLER = process.env.BENCH_TRACES_SAMPLER ?? "always_on";

export async function benchTracingHttp(): Promise<void> {
  if (PINNING) Bun.spawnSync(["taskset", "-a", "-p", "-c", PINNING.load, String(process.pid)], { stdout: "ignore" });
  let exports = 0;
  // A collector that takes every export: the cost measured is the server's, not a slow collector's.
  const collector = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      exports += (await request.arrayBuffer()).byteLength > 0 ? 1 : 0;
      return new Response(null, { status: 200 });
    },
  });
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-bench-"));
  const tracing = {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}`,
    OTEL_TRACES_SAMPLER: SAMPLER,
  };
  try {
    const script = postScript(scratch, "example", EXAMPLE_REQUEST);
    const contender = (name: "on" | "off"): Contender => ({
      name: `tracing ${name}`,
      start: () => startRuleServer(RULES, 0, undefined, name === "on" ? tracing : {}),
      path: "/evaluations",
      script,
      probe: EXAMPLE_REQUEST,
    });
    const runs = { on: [] as WrkFigures[], off: [] as WrkFigures[] };
    for (let round = 0; round < ROUNDS; round++) {
      const [first, second] = round % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const);
      const pair = await measureSideBySide(contender(first), contender(second));
      runs[first].push(pooledFigures(pair.first));
      runs[second].push(pooledFigures(pair.second));
    }
    console.log(
      `\nTracing over HTTP, rules/ example, 0 workers, wrk -t1 -c64 per server, ${ROUNDS} rounds of a fresh pair side by side, warmed ${SIDE_BY_SIDE_WARMUP} s then ${BURSTS} bursts of ${BURST_SECONDS} s, ${PINNING ? `both servers on core ${PINNING.server}, both wrk and the collector on core ${PINNING.load}` : "not pinned (one core)"}`,
    );
    for (const name of ["off", "on"] as const) {
      const rates = runs[name].map((run) => Math.round(run.requestsPerSecond));
      console.log(
        `  ${name.padEnd(3)} ${median(rates).toLocaleString("en-US").padStart(9)} req/s (rounds: ${rates.join(", ")})`,
      );
    }
    const time = median(runs.off.map((run, round) => run.requestsPerSecond / runs.on[round]!.requestsPerSecond));
    const cpu = runs.on.every((run) => run.processMicros !== undefined)
      ? median(runs.on.map((run, round) => run.processMicros! / runs.off[round]!.processMicros!))
      : undefined;
    console.log(
      `Tracing on (${SAMPLER}, OTLP protobuf) against off: ${time.toFixed(3)}x the time per request (median of the rounds' ratios; target at most ${TARGET.toFixed(2)}x)${cpu === undefined ? "" : `, ${cpu.toFixed(3)}x the server's CPU per request`}; the collector took ${exports.toLocaleString("en-US")} exports.`,
    );
  } finally {
    collector.stop(true);
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchTracingHttp();
