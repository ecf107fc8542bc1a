/**
 * What schema enforcement `warn` (the default) costs a single request over HTTP: rule-server with
 * no workers on the rules/ example, once with `warn` and once with `off`, driven by wrk as
 * throughput.ts drives it (which measures the same pair among its servers, in fewer rounds). The
 * two alternate in every round (warn first in even rounds, off first in odd ones), so that drift
 * on a shared machine falls on both alike; the figure is the median over the rounds of the ratio
 * of their times per request. Target: warn at most 1.10x the time of off. Prints figures; asserts
 * nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../measure.ts";
import { startRuleServer } from "./server-processes.ts";
import { measureContender, SECONDS, WARMUP } from "./contender.ts";
import { EXAMPLE_REQUEST, postScript } from "./throughput.ts";
import { printEnforcementCost } from "./enforcement-cost.ts";
import { PINNING, type WrkFigures } from "./wrk.ts";

const RULES = join(import.meta.dir, "..", "..", "rules");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "6");
const ENFORCEMENTS = ["warn", "off"] as const;

function measureOnce(enforcement: string, script: string): Promise<WrkFigures> {
  return measureContender({
    name: enforcement,
    start: () => startRuleServer(RULES, 0, undefined, { RULE_SERVER_SCHEMA_ENFORCEMENT: enforcement }),
    path: "/evaluations",
    script,
    probe: EXAMPLE_REQUEST,
    // The example fits its schema: a warning would mean the two servers answer differently.
    checkProbe: (body) => {
      if ((body as { warnings?: unknown }).warnings !== undefined)
        throw new Error(`${enforcement}: the bench request is answered with warnings: ${JSON.stringify(body)}`);
    },
  });
}

export async function benchSchemaEnforcementHttp(): Promise<void> {
  if (PINNING) Bun.spawnSync(["taskset", "-a", "-p", "-c", PINNING.load, String(process.pid)], { stdout: "ignore" });
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-bench-"));
  try {
    const script = postScript(scratch, "example", EXAMPLE_REQUEST);
    const runs = { warn: [] as WrkFigures[], off: [] as WrkFigures[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const enforcement of round % 2 === 0 ? ENFORCEMENTS : [...ENFORCEMENTS].reverse())
        runs[enforcement].push(await measureOnce(enforcement, script));
    }
    console.log(
      `\nSchema enforcement over HTTP, rules/ example, 0 workers, wrk -t1 -c64 -d${SECONDS}s after ${WARMUP} s, ${ROUNDS} rounds, ${PINNING ? `server on core ${PINNING.server}, wrk on core ${PINNING.load}` : "not pinned (one core)"}`,
    );
    for (const enforcement of ENFORCEMENTS) {
      const rates = runs[enforcement].map((run) => Math.round(run.requestsPerSecond));
      const micros = runs[enforcement].map((run) => run.processMicros);
      const cpu = micros.some((value) => value === undefined)
        ? ""
        : `, ${median(micros as number[]).toFixed(1)} CPU µs per request`;
      console.log(
        `  ${enforcement.padEnd(4)} ${median(rates).toLocaleString("en-US").padStart(9)} req/s (rounds: ${rates.join(", ")})${cpu}`,
      );
    }
    printEnforcementCost(runs.warn, runs.off);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchSchemaEnforcementHttp();
