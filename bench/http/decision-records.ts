/**
 * What decision records cost a single request over HTTP: rule-server with no workers on the
 * rules/ example, records off against records written to a file with a mask of two members,
 * driven by wrk as throughput.ts drives it, alternating in every round so that drift on a shared
 * machine falls on both alike. Target: records at most 1.10x the time per request of none.
 * Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../measure.ts";
import { startRuleServer } from "./server-processes.ts";
import { measureContender, SECONDS, WARMUP } from "./contender.ts";
import { EXAMPLE_REQUEST, postScript } from "./throughput.ts";
import { PINNING, type WrkFigures } from "./wrk.ts";

const RULES = join(import.meta.dir, "..", "..", "rules");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "4");

function measureOnce(records: string | undefined, script: string): Promise<WrkFigures> {
  const env: Record<string, string> = records === undefined ? {} : { RULE_SERVER_DECISION_RECORDS: records, RULE_SERVER_DECISION_MASK: "/data/debtor/iban,/actor/id" };
  return measureContender({ name: `records ${records ?? "off"}`, start: () => startRuleServer(RULES, 0, undefined, env), path: "/evaluations", script, probe: EXAMPLE_REQUEST });
}

export async function benchDecisionRecordsHttp(): Promise<void> {
  if (PINNING) Bun.spawnSync(["taskset", "-a", "-p", "-c", PINNING.load, String(process.pid)], { stdout: "ignore" });
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-bench-records-"));
  try {
    const script = postScript(scratch, "example", EXAMPLE_REQUEST);
    const file = join(scratch, "records.jsonl");
    const off: WrkFigures[] = [];
    const on: WrkFigures[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) off.push(await measureOnce(undefined, script));
      on.push(await measureOnce(file, script));
      if (round % 2 === 1) off.push(await measureOnce(undefined, script));
    }
    const rate = (runs: readonly WrkFigures[]): number => median(runs.map((run) => run.requestsPerSecond));
    const cpu = (runs: readonly WrkFigures[]): number => median(runs.map((run) => run.processMicros ?? Number.NaN));
    console.log(`\nDecision records over HTTP, rules/ example, 0 workers, wrk -t1 -c64 -d${SECONDS}s after ${WARMUP} s, ${ROUNDS} rounds, ${PINNING ? `server on core ${PINNING.server}, wrk on core ${PINNING.load}` : "not pinned (one core)"}`);
    console.log(`  records off   ${Math.round(rate(off)).toLocaleString("en-US").padStart(9)} req/s, ${cpu(off).toFixed(1)} µs of server CPU per request`);
    console.log(`  records file  ${Math.round(rate(on)).toLocaleString("en-US").padStart(9)} req/s, ${cpu(on).toFixed(1)} µs of server CPU per request (${(statSync(file).size / 1048576).toFixed(0)} MiB of records written)`);
    const ratio = median(off.map((run, round) => run.requestsPerSecond / on[round]!.requestsPerSecond));
    // CPU per request leaves out what the kernel does later for the file (writing dirty pages back), which throughput sees.
    const cpuRatio = median(off.map((run, round) => (on[round]!.processMicros ?? Number.NaN) / (run.processMicros ?? Number.NaN)));
    console.log(`records take ${ratio.toFixed(3)}x the time per request of none (median of the rounds' ratios; target at most 1.10x); the server's own CPU per request ${cpuRatio.toFixed(3)}x`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchDecisionRecordsHttp();
