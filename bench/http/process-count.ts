/**
 * RULE_SERVER_PROCESSES: what a second serving process costs and how the kernel shares the work.
 * The server (supervisor and serving processes) runs pinned to one core and wrk to another, so
 * that both counts are given the same CPU: the CPU time per request of the whole server (every
 * process, the supervisor's relaying of log lines included) with 2 processes should be within 10%
 * of 1 process's, and each of the 2 should answer at least 40% of the requests (counted from the
 * `pid` of the request log lines, which go to a file). Equal cost per request and an even share
 * mean that N cores serve about N times what one does; this 2-core machine cannot show it, since
 * wrk needs the second core. Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../measure.ts";
import { BENCH_TOKEN } from "./server-processes.ts";
import { EXAMPLE_REQUEST } from "./throughput.ts";
import { cpuSeconds, PINNING, pinned, wrk, type WrkFigures } from "./wrk.ts";

const ROOT = join(import.meta.dir, "..", "..");
const SECONDS = process.env.BENCH_SECONDS ?? "5";
const WARMUP = process.env.BENCH_WARMUP_SECONDS ?? "3";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface ProcessesServer {
  readonly url: string;
  /** The started process, then the serving processes (none with 1). */
  readonly pids: readonly number[];
  /** Bytes of log written so far. */
  readonly logged: () => number;
  /** Request log lines between two points of the log, by the pid that wrote them (with 1 process the lines carry none: key 0). */
  readonly answeredBy: (from: number, to: number) => Promise<Map<number, number>>;
  stop(): void;
}

/**
 * rule-server with its log in a file, as journald or a container runtime would take it: a
 * consumer that never holds the server back, whose lines are counted after the run.
 */
async function startServer(processes: number, core: string | undefined, scratch: string): Promise<ProcessesServer> {
  const log = join(scratch, `server-${processes}-${Date.now()}.log`);
  const child = Bun.spawn(pinned(core, [process.execPath, join(ROOT, "src", "main.ts")]), {
    cwd: ROOT,
    env: {
      ...process.env,
      RULES_DIR: join(ROOT, "rules"),
      PORT: "0",
      RULE_SERVER_TOKEN: BENCH_TOKEN,
      DRAIN_SECONDS: "0",
      RULE_SERVER_WORKERS: "0",
      RULE_SERVER_PROCESSES: String(processes),
    },
    stdout: Bun.file(log),
    stderr: "inherit",
  });
  const pids: number[] = [child.pid];
  let port: number | undefined;
  while (port === undefined) {
    if (child.exitCode !== null)
      throw new Error(`rule-server with ${processes} processes did not start:\n${await Bun.file(log).text()}`);
    await Bun.sleep(50);
    const text = await Bun.file(log).text();
    port = Number(/"msg":"listening".*"port":(\d+)/.exec(text)?.[1] ?? Number.NaN) || undefined;
    if (port !== undefined)
      pids.push(
        ...[...text.matchAll(/"msg":"serving process listening".*"pid":(\d+)/g)].map((match) => Number(match[1])),
      );
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pids,
    logged: () => Bun.file(log).size,
    answeredBy: async (from, to) => {
      const counts = new Map<number, number>();
      for (const line of (await Bun.file(log).slice(from, to).text()).split("\n")) {
        if (!line.includes('"msg":"request"')) continue;
        const pid = Number(/"pid":(\d+)\}$/.exec(line)?.[1] ?? 0);
        counts.set(pid, (counts.get(pid) ?? 0) + 1);
      }
      return counts;
    },
    stop: () => {
      child.kill("SIGKILL");
      rmSync(log, { force: true });
    },
  };
}

interface Run {
  readonly figures: WrkFigures;
  /** CPU microseconds per request of every process of the server, and of the supervisor alone. */
  readonly serverMicros: number | undefined;
  readonly supervisorMicros: number | undefined;
  /** The smallest share of the requests one serving process answered (1 with a single process). */
  readonly smallestShare: number;
}

async function measure(processes: number, script: string, core: string | undefined, scratch: string): Promise<Run> {
  const server = await startServer(processes, core, scratch);
  try {
    await wrk(`${server.url}/evaluations`, script, server.pids[0]!, WARMUP);
    // Lines of the warm-up still on their way are counted with the run: a few among hundreds of thousands.
    const from = server.logged();
    const before = server.pids.map(cpuSeconds);
    const figures = await wrk(`${server.url}/evaluations`, script, server.pids[0]!, SECONDS);
    const after = server.pids.map(cpuSeconds);
    // The last request lines of the run reach the log a moment after wrk ends.
    await Bun.sleep(300);
    const answered = [...(await server.answeredBy(from, server.logged()))];
    const requests = answered.reduce((sum, [, count]) => sum + count, 0);
    const cpu =
      before.every((value) => value !== undefined) && after.every((value) => value !== undefined)
        ? after.map((value, index) => value!.process - before[index]!.process)
        : undefined;
    const serving = answered.filter(([pid]) => processes === 1 || server.pids.slice(1).includes(pid));
    return {
      figures,
      serverMicros:
        cpu === undefined || requests === 0 ? undefined : (cpu.reduce((sum, value) => sum + value, 0) / requests) * 1e6,
      supervisorMicros: cpu === undefined || requests === 0 || processes === 1 ? undefined : (cpu[0]! / requests) * 1e6,
      smallestShare:
        processes === 1
          ? 1
          : serving.length < processes
            ? 0
            : Math.min(...serving.map(([, count]) => count / requests)),
    };
  } finally {
    server.stop();
  }
}

function row(name: string, runs: readonly Run[]): void {
  // The lowest round's share: the target holds for every round or not at all.
  const number = (value: number): string => Math.round(value).toLocaleString("en-US");
  const micros = (values: readonly (number | undefined)[]): string =>
    values.some((value) => value === undefined) ? "-" : median(values as number[]).toFixed(1);
  const rates = runs.map((run) => run.figures.requestsPerSecond);
  const steals = runs.map((run) => run.figures.stealShare);
  const non2xx = runs.reduce((sum, run) => sum + run.figures.non2xx, 0);
  console.log(
    `${name.padEnd(46)} ${number(median(rates)).padStart(9)} ${`(${number(Math.min(...rates))}-${number(Math.max(...rates))})`.padStart(17)} ${median(
      runs.map((run) => run.figures.p99Ms),
    )
      .toFixed(2)
      .padStart(
        7,
      )} ${micros(runs.map((run) => run.serverMicros)).padStart(7)} ${micros(runs.map((run) => run.supervisorMicros)).padStart(7)} ${`${(Math.min(...runs.map((run) => run.smallestShare)) * 100).toFixed(0)}%`.padStart(6)} ${(steals.some((value) => value === undefined) ? "-" : `${(median(steals as number[]) * 100).toFixed(0)}%`).padStart(6)}${non2xx > 0 ? `  (${non2xx} non-2xx!)` : ""}`,
  );
}

export async function benchProcessCount(): Promise<void> {
  if (process.platform !== "linux") {
    console.log("\nRULE_SERVER_PROCESSES: Linux only, skipped.");
    return;
  }
  if (PINNING) Bun.spawnSync(["taskset", "-a", "-p", "-c", PINNING.load, String(process.pid)], { stdout: "ignore" });
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-bench-"));
  try {
    const script = join(scratch, "example.lua");
    writeFileSync(
      script,
      `wrk.method = "POST"\nwrk.body = ${JSON.stringify(JSON.stringify(EXAMPLE_REQUEST))}\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Authorization"] = "Bearer ${BENCH_TOKEN}"\n`,
    );
    const pinnedRuns: Record<1 | 2, Run[]> = { 1: [], 2: [] };
    // Each round measures both counts, so that both see the same spread of a shared machine's moods.
    for (let round = 0; round < ROUNDS; round++)
      for (const processes of [1, 2] as const)
        pinnedRuns[processes].push(await measure(processes, script, PINNING?.server, scratch));

    console.log(
      `\nRULE_SERVER_PROCESSES, rules/ example, 0 workers, wrk -t1 -c64 -d${SECONDS}s after ${WARMUP} s of the same load, ${PINNING ? `server on core ${PINNING.server}, wrk on core ${PINNING.load}` : "not pinned (one core)"}, ${ROUNDS} rounds, median (min-max)`,
    );
    console.log(
      "Targets, with the server on one core: CPU per request with 2 processes within 10% of 1 process's; each process answers 40% of the requests or more.",
    );
    console.log(
      `${"server".padEnd(46)} ${"req/s".padStart(9)} ${"(min-max)".padStart(17)} ${"p99 ms".padStart(7)} ${"CPU µs".padStart(7)} ${"sup µs".padStart(7)} ${"share".padStart(6)} ${"steal".padStart(6)}`,
    );
    row("1 process", pinnedRuns[1]);
    row("2 processes", pinnedRuns[2]);
    console.log(
      "CPU µs: every process of the server per request (the supervisor's too); sup µs: the supervisor's alone (it relays the log lines); share: the fewest requests one serving process answered, of all (lowest round).",
    );
    const cpu = (runs: readonly Run[]): number | undefined =>
      runs.some((run) => run.serverMicros === undefined) ? undefined : median(runs.map((run) => run.serverMicros!));
    const one = cpu(pinnedRuns[1]);
    const two = cpu(pinnedRuns[2]);
    if (one !== undefined && two !== undefined)
      console.log(
        `CPU per request, 2 processes against 1: ${((two / one - 1) * 100).toFixed(1)}% (target within 10%).`,
      );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchProcessCount();
