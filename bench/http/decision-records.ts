/**
 * What decision records cost a single request over HTTP: rule-server on the rules/ example,
 * records off against records on, at 0 workers and with workers (RULE_SERVER_WORKERS), driven by
 * wrk as throughput.ts drives it.
 *
 * Rows: records to a file as they are out of the box (no mask); with a mask of two members (the
 * request serialized again, see decision-record.ts); and to /dev/null, which is everything but
 * the file system's share (the kernel copying each record into the page cache, and later writing
 * it out).
 *
 * Pairs, measured at the same time: each records setting and "records off" at the same worker
 * count are driven together, each by a wrk of its own, for a burst of a few seconds, both servers
 * (every thread of them) on one core and both wrk on the other. On a shared machine the speed of
 * a core changes by half from one second to the next; two servers measured in the same seconds
 * on the same core see the same, where two measured one after the other do not. Each server's
 * CPU time per request is read from /proc: the whole process's (on one core, its time per
 * request) and its event loop's (main thread's) alone. Rounds turn the order of the pairs about.
 * Files are emptied after each burst, so that every burst writes into the page cache alike.
 *
 * With workers, the worker shares the core with the event loop, so the process's CPU per request
 * counts what the worker does for a record too; the event loop's (`loop`) is the figure of the
 * target with workers: the record is made in the worker and the event loop only writes it, and
 * with a core per worker the event loop is what a process with workers is limited by.
 * BENCH_RECORDS_WORKERS lists the worker counts (default "0,1": more workers on the server's one
 * core would measure nothing more).
 *
 * Targets: with workers, records at most 1.10x the event loop's time per request of none; at 0
 * workers, measured, no target. Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../measure.ts";
import { BENCH_TOKEN, startRuleServer, type BenchServer } from "./server-processes.ts";
import { WARMUP } from "./contender.ts";
import { EXAMPLE_REQUEST, postScript } from "./throughput.ts";
import { PINNING, wrk, type WrkFigures } from "./wrk.ts";

const RULES = join(import.meta.dir, "..", "..", "rules");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "6");
const BURST_SECONDS = process.env.BENCH_BURST_SECONDS ?? "3";
const WORKER_COUNTS = (process.env.BENCH_RECORDS_WORKERS ?? "0,1").split(",").map(Number);
const MASK = "/data/debtor/iban,/actor/id";

interface RecordsSetting {
  readonly name: string;
  /** The file the setting writes to, emptied after each burst; none for /dev/null. */
  readonly file?: string;
  readonly env: Record<string, string>;
}

/** A records setting at one worker count, with the "records off" server it is measured beside. */
interface Pair {
  readonly workers: number;
  readonly setting: RecordsSetting;
  readonly server: BenchServer;
  readonly off: BenchServer;
  /** Each round's burst: records off, and the setting, driven at the same time. */
  readonly bursts: { readonly off: WrkFigures; readonly on: WrkFigures }[];
}

function settingsIn(scratch: string, workers: number): RecordsSetting[] {
  const file = (name: string): string => join(scratch, `records-${workers}-${name}.jsonl`);
  return [
    { name: "records to a file", file: file("plain"), env: { RULE_SERVER_DECISION_RECORDS: file("plain") } },
    {
      name: "records to a file, masked",
      file: file("masked"),
      env: { RULE_SERVER_DECISION_RECORDS: file("masked"), RULE_SERVER_DECISION_MASK: MASK },
    },
    { name: "records to /dev/null", env: { RULE_SERVER_DECISION_RECORDS: "/dev/null" } },
  ];
}

async function started(workers: number, env: Record<string, string>): Promise<BenchServer> {
  const server = await startRuleServer(RULES, workers, undefined, env);
  const answer = await fetch(`${server.url}/evaluations`, {
    method: "POST",
    headers: { Authorization: `Bearer ${BENCH_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify(EXAMPLE_REQUEST),
  });
  if (answer.status !== 200) {
    server.stop();
    throw new Error(`the bench request is answered ${answer.status} with ${JSON.stringify(env)}`);
  }
  return server;
}

export async function benchDecisionRecordsHttp(): Promise<void> {
  if (PINNING) Bun.spawnSync(["taskset", "-a", "-p", "-c", PINNING.load, String(process.pid)], { stdout: "ignore" });
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-bench-records-"));
  const servers: BenchServer[] = [];
  const start = async (workers: number, env: Record<string, string>): Promise<BenchServer> => {
    const server = await started(workers, env);
    servers.push(server);
    return server;
  };
  try {
    const script = postScript(scratch, "example", EXAMPLE_REQUEST);
    const drive = (server: BenchServer, seconds: string): Promise<WrkFigures> =>
      wrk(`${server.url}/evaluations`, script, server.pid, seconds);
    const pairs: Pair[] = [];
    for (const workers of WORKER_COUNTS) {
      const off = await start(workers, {});
      for (const setting of settingsIn(scratch, workers))
        pairs.push({ workers, setting, server: await start(workers, setting.env), off, bursts: [] });
    }
    const emptyFile = (pair: Pair): void => {
      if (pair.setting.file !== undefined) truncateSync(pair.setting.file, 0);
    };
    // Warmed up as measured, in pairs, twice (the first round is not counted): the figures are
    // those of servers whose code the JIT has compiled, in its background threads too. The
    // "records off" server of a worker count is warmed with each of its pairs, a records server
    // once: without the second round, the first counted one saw the JIT still busy in the latter.
    for (const pair of pairs) await Promise.all([drive(pair.off, WARMUP), drive(pair.server, WARMUP)]);
    for (let round = -1; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? pairs : [...pairs].reverse();
      for (const pair of order) {
        const [off, on] = await Promise.all([drive(pair.off, BURST_SECONDS), drive(pair.server, BURST_SECONDS)]);
        if (round >= 0) pair.bursts.push({ off, on });
        emptyFile(pair);
      }
    }
    printFigures(pairs);
  } finally {
    for (const server of servers) server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const processCpu = (run: WrkFigures): number => run.processMicros ?? Number.NaN;
const loopCpu = (run: WrkFigures): number => run.eventLoopMicros ?? Number.NaN;

function printFigures(pairs: readonly Pair[]): void {
  const ratios = (pair: Pair, figure: (run: WrkFigures) => number): number[] =>
    pair.bursts.map(({ off, on }) => figure(on) / figure(off));
  const times = (values: readonly number[]): string => `${median(values).toFixed(2)}x`;
  const micros = (runs: readonly WrkFigures[], figure: (run: WrkFigures) => number): string =>
    median(runs.map(figure)).toFixed(1);
  const rate = (runs: readonly WrkFigures[]): string =>
    Math.round(median(runs.map((run) => run.requestsPerSecond))).toLocaleString("en-US");
  const row = (name: string, runs: readonly WrkFigures[], cpuRatio: string, loopRatio: string): void =>
    console.log(
      `${name.padEnd(38)} ${rate(runs).padStart(7)} ${micros(runs, processCpu).padStart(7)} ${micros(runs, loopCpu).padStart(7)} ${cpuRatio.padStart(6)} ${loopRatio.padStart(6)}`,
    );
  console.log(
    `\nDecision records over HTTP, rules/ example, each setting driven together with records off (wrk -t1 -c64 each), ${ROUNDS} rounds of ${BURST_SECONDS} s after ${WARMUP} s and a round not counted, ${PINNING ? `servers (every thread) on core ${PINNING.server}, wrk on core ${PINNING.load}` : "not pinned (one core)"}`,
  );
  console.log("Ratios to records off at the same worker count, measured at the same time: the median over the rounds.");
  console.log(
    `${"".padEnd(38)} ${"req/s".padStart(7)} ${"CPU µs".padStart(7)} ${"loop µs".padStart(7)} ${"CPU".padStart(6)} ${"loop".padStart(6)}`,
  );
  for (const workers of WORKER_COUNTS) {
    const mine = pairs.filter((pair) => pair.workers === workers);
    row(
      `records off, ${workers} workers`,
      mine.flatMap((pair) => pair.bursts.map((burst) => burst.off)),
      "1.00x",
      "1.00x",
    );
    for (const pair of mine)
      row(
        `${pair.setting.name}, ${workers} workers`,
        pair.bursts.map((burst) => burst.on),
        times(ratios(pair, processCpu)),
        times(ratios(pair, loopCpu)),
      );
  }
  console.log("Round by round, CPU; loop:");
  for (const pair of pairs) {
    const eachRound = (values: readonly number[]): string => values.map((value) => value.toFixed(2)).join(" ");
    console.log(
      `${`${pair.setting.name}, ${pair.workers} workers`.padEnd(38)} ${eachRound(ratios(pair, processCpu))}; ${eachRound(ratios(pair, loopCpu))}`,
    );
  }
  console.log(
    "req/s: each server's while it shares its core with the other of its pair; CPU: the server process's CPU time per request (on one core, its time per request); loop: its event loop's (main thread's) alone.",
  );
  console.log(
    "Targets: with workers, records at most 1.10x the event loop's time per request of none (loop); at 0 workers, measured, no target. CPU leaves out what the kernel does later for the file (writing dirty pages out).",
  );
}

if (import.meta.main) await benchDecisionRecordsHttp();
