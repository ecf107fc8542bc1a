/**
 * What decision records cost a single request over HTTP: rule-server with no workers on the
 * rules/ example, records off against records on, driven by wrk as throughput.ts drives it. Every
 * round measures each server once, in an order that turns round about, so that drift on a shared
 * machine falls on all alike; each ratio is to the same round's "records off".
 *
 * Rows: records to a file as they are out of the box (no mask); with a mask of two members (the
 * request serialized again, see decision-record.ts); and to /dev/null, which is everything but
 * the file system's share (the kernel copying each record into the page cache, and later writing
 * it out). Target: records at most 1.10x the time per request of none. Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../measure.ts";
import { startRuleServer } from "./server-processes.ts";
import { measureContender, SECONDS, WARMUP } from "./contender.ts";
import { EXAMPLE_REQUEST, postScript } from "./throughput.ts";
import { PINNING, type WrkFigures } from "./wrk.ts";

const RULES = join(import.meta.dir, "..", "..", "rules");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "4");
const MASK = "/data/debtor/iban,/actor/id";

interface RecordsSetting {
  readonly name: string;
  /** The records' settings; none for records off. */
  readonly env?: Record<string, string>;
}

function measureOnce(setting: RecordsSetting, script: string): Promise<WrkFigures> {
  return measureContender({
    name: setting.name,
    start: () => startRuleServer(RULES, 0, undefined, setting.env),
    path: "/evaluations",
    script,
    probe: EXAMPLE_REQUEST,
  });
}

export async function benchDecisionRecordsHttp(): Promise<void> {
  if (PINNING) Bun.spawnSync(["taskset", "-a", "-p", "-c", PINNING.load, String(process.pid)], { stdout: "ignore" });
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-bench-records-"));
  try {
    const script = postScript(scratch, "example", EXAMPLE_REQUEST);
    const file = join(scratch, "records.jsonl");
    const settings: RecordsSetting[] = [
      { name: "records off" },
      { name: "records to a file", env: { RULE_SERVER_DECISION_RECORDS: file } },
      {
        name: "records to a file, masked",
        env: { RULE_SERVER_DECISION_RECORDS: file, RULE_SERVER_DECISION_MASK: MASK },
      },
      { name: "records to /dev/null", env: { RULE_SERVER_DECISION_RECORDS: "/dev/null" } },
    ];
    const runs = settings.map(() => [] as WrkFigures[]);
    for (let round = 0; round < ROUNDS; round++) {
      const order = settings.map((_, index) => index);
      if (round % 2 === 1) order.reverse();
      for (const index of order) {
        runs[index]!.push(await measureOnce(settings[index]!, script));
        // Each server starts with an empty file: the page cache and the disk see the same from every run.
        rmSync(file, { force: true });
      }
    }
    const off = runs[0]!;
    const perRound = (values: (run: WrkFigures, round: number) => number): number =>
      median(off.map((run, round) => values(run, round)));
    console.log(
      `\nDecision records over HTTP, rules/ example, 0 workers, wrk -t1 -c64 -d${SECONDS}s after ${WARMUP} s, ${ROUNDS} rounds, ${PINNING ? `server on core ${PINNING.server}, wrk on core ${PINNING.load}` : "not pinned (one core)"}`,
    );
    console.log(
      `${"".padEnd(28)} ${"req/s".padStart(9)} ${"CPU µs".padStart(7)} ${"time per request".padStart(17)} ${"CPU per request".padStart(16)}`,
    );
    settings.forEach((setting, index) => {
      const mine = runs[index]!;
      // Both ratios are the median of each round's own: that round's "records off" saw the same minute.
      const timeRatio = perRound((run, round) => run.requestsPerSecond / mine[round]!.requestsPerSecond);
      const cpuRatio = perRound(
        (run, round) => (mine[round]!.processMicros ?? Number.NaN) / (run.processMicros ?? Number.NaN),
      );
      const rate = Math.round(median(mine.map((run) => run.requestsPerSecond))).toLocaleString("en-US");
      const cpu = median(mine.map((run) => run.processMicros ?? Number.NaN)).toFixed(1);
      console.log(
        `${setting.name.padEnd(28)} ${rate.padStart(9)} ${cpu.padStart(7)} ${`${timeRatio.toFixed(3)}x`.padStart(17)} ${`${cpuRatio.toFixed(3)}x`.padStart(16)}`,
      );
    });
    console.log(
      "Target: records at most 1.10x the time per request of none. CPU per request leaves out what the kernel does later for the file (writing dirty pages out), which time per request sees.",
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchDecisionRecordsHttp();
