/**
 * HTTP throughput of POST /evaluations, driven by wrk at 64 connections, next to a bare Bun.serve
 * answering a fixed JSON body (the baseline) and one that parses the body and answers it (the
 * floor: the least a server that looks at the request must do), and one that answers with the
 * engine alone (engine-only-server.ts: what is left of rule-server's figure is its own path), all
 * measured in the same run.
 * With two or more cores the server runs on one core and wrk on another (`taskset`). Every server
 * is measured once in each of three rounds; the median is printed with min and max, and the share
 * of the baseline is the median of the rounds' ratios.
 * Each server is first driven with the same load for WARMUP seconds, not counted: the figures are
 * those of a server whose code the JIT has compiled, as a server in production runs, and not of its
 * first seconds (which the start-up figures of startup.ts cover).
 * Targets: the shop ruleset at 55% of the baseline or more, the rules/ example at 35% or more,
 * p99 under 4 ms. The example with schema enforcement off is a row of the table; what `warn` costs
 * against it is schema-enforcement.ts's figure (measured side by side, the only way this machine
 * resolves a few percent). Batches of shop requests (batch-figures.ts) run in
 * the same rounds and are printed beside the single shop requests. Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BENCH_TOKEN, startBareServer, startEngineOnlyServer, startRuleServer } from "./server-processes.ts";
import { measureContender, SECONDS, WARMUP, type Contender } from "./contender.ts";
import { median } from "../measure.ts";
import { PINNING, type WrkFigures } from "./wrk.ts";
import { BATCH_CONNECTIONS, BATCH_ITEMS, batchOf, printBatchRows } from "./batch-figures.ts";
import { shopRulesDirectory } from "./shop-rules.ts";

const ROOT = join(import.meta.dir, "..", "..");
const RUNS = 3;

/** The request of README's first evaluation, on the shipped rules/. */
export const EXAMPLE_REQUEST = {
  ruleset: "acme.payments.transfers",
  entity: "Transfer",
  operation: "create",
  data: {
    id: "TRF-200010",
    amount: 30000,
    reference: "Machine parts",
    debtor: { iban: "DE89370400440532013000", country: "DE" },
    beneficiary: { iban: "AT611904300234573201", country: "AT" },
  },
  actor: { id: "u-2001", roles: ["treasury-manager"] },
  ctx: { now: "2026-03-02T09:30:00Z" },
};

/** The shop ruleset of the interop vectors, allowed with one command. */
export const SHOP_REQUEST = {
  ruleset: "shop.orders.order",
  entity: "Order",
  operation: "create",
  data: { quantity: 3, unitPrice: 0.1, customer: { email: "a@b.c" } },
  actor: { id: "u1", roles: ["clerk"] },
};

const BASELINE = "bare Bun.serve, fixed JSON body (baseline)";
const FLOOR = "bare Bun.serve, parses and echoes (floor)";
const SHOP_ENGINE = "engine alone in Bun.serve, shop ruleset";
const SHOP_SERVER = "rule-server, shop ruleset, 0 workers";
const EXAMPLE_ENGINE = "engine alone in Bun.serve, rules/ example";
const EXAMPLE_SERVER = "rule-server, rules/ example, 0 workers";
const EXAMPLE_UNCHECKED = "the same, schema enforcement off";
const SHOP_BATCH = `rule-server, shop ruleset, batches of ${BATCH_ITEMS}, 0 workers`;

interface Row {
  readonly name: string;
  readonly runs: WrkFigures[];
}

/** A wrk script that POSTs `body` with the bench token (or another bearer token). */
export function postScript(directory: string, name: string, body: unknown, token = BENCH_TOKEN): string {
  const script = join(directory, `${name}.lua`);
  writeFileSync(
    script,
    `wrk.method = "POST"\nwrk.body = ${JSON.stringify(JSON.stringify(body))}\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Authorization"] = "Bearer ${token}"\n`,
  );
  return script;
}

/**
 * Each round runs every server once, so that every server sees the same spread of the machine's
 * moods (a shared machine can halve a figure from one minute to the next).
 */
async function measureInRounds(contenders: readonly Contender[]): Promise<(Row & { contender: Contender })[]> {
  const rows = contenders.map((contender) => ({ name: contender.name, runs: [] as WrkFigures[], contender }));
  for (let round = 0; round < RUNS; round++) {
    for (const [index, contender] of contenders.entries()) rows[index]!.runs.push(await measureContender(contender));
  }
  return rows;
}

function printRows(rows: readonly Row[]): void {
  // The share is the median of each round's ratio to that round's baseline: both saw the same minute.
  const baseline = rows[0]!.runs.map((run) => run.requestsPerSecond);
  const number = (value: number): string => Math.round(value).toLocaleString("en-US");
  const micros = (values: (number | undefined)[]): string =>
    values.some((value) => value === undefined) ? "-" : `${median(values as number[]).toFixed(1)}`;
  console.log(
    `\nHTTP, wrk -t1 -c64 -d${SECONDS}s after ${WARMUP} s of the same load, ${PINNING ? `server on core ${PINNING.server}, wrk on core ${PINNING.load}` : "not pinned (one core)"}, ${RUNS} rounds of every server, median (min-max)`,
  );
  console.log("Targets: shop at 55% of the baseline or more, rules/ example at 35% or more; p99 under 4 ms.");
  console.log(
    `${"server".padEnd(44)} ${"req/s".padStart(9)} ${"(min-max)".padStart(17)} ${"share".padStart(6)} ${"p99 ms".padStart(7)} ${"CPU µs".padStart(7)} ${"loop µs".padStart(8)} ${"steal".padStart(6)}`,
  );
  for (const row of rows) {
    const rates = row.runs.map((run) => run.requestsPerSecond);
    const share = `${(median(rates.map((rate, round) => rate / baseline[round]!)) * 100).toFixed(0)}%`;
    const range = `(${number(Math.min(...rates))}-${number(Math.max(...rates))})`;
    const non2xx = row.runs.reduce((sum, run) => sum + run.non2xx, 0);
    const steals = row.runs.map((run) => run.stealShare);
    const steal = steals.some((value) => value === undefined)
      ? "-"
      : `${(median(steals as number[]) * 100).toFixed(0)}%`;
    console.log(
      `${row.name.padEnd(44)} ${number(median(rates)).padStart(9)} ${range.padStart(17)} ${share.padStart(6)} ${median(
        row.runs.map((run) => run.p99Ms),
      )
        .toFixed(2)
        .padStart(
          7,
        )} ${micros(row.runs.map((run) => run.processMicros)).padStart(7)} ${micros(row.runs.map((run) => run.eventLoopMicros)).padStart(8)} ${steal.padStart(6)}${non2xx > 0 ? `  (${non2xx} non-2xx!)` : ""}`,
    );
  }
  console.log("CPU µs: the server process's CPU time per request; loop µs: its main thread's alone.");
  console.log(
    "steal: the server core's time taken by other guests of the host during the runs (median); high steal, slower figures.",
  );
}

/**
 * A request's CPU split in three, from the rows of the same run: what the target share leaves of
 * the baseline's CPU, the engine and its JSON beyond the floor, and rule-server's own path (token,
 * request id, metrics, log line) beyond the engine alone.
 */
function printBreakdown(
  rows: readonly Row[],
  cases: readonly {
    readonly name: string;
    readonly target: number;
    readonly engineAlone: string;
    readonly ruleServer: string;
  }[],
): void {
  const cpu = (name: string): number | undefined => {
    const runs = rows.find((row) => row.name === name)?.runs.map((run) => run.processMicros);
    return runs === undefined || runs.some((value) => value === undefined) ? undefined : median(runs as number[]);
  };
  const baseline = cpu(BASELINE);
  const floor = cpu(FLOOR);
  if (baseline === undefined || floor === undefined) return;
  console.log(
    `Where a request's CPU goes (µs, medians): the floor takes ${floor.toFixed(1)}, the baseline ${baseline.toFixed(1)}.`,
  );
  for (const { name, target, engineAlone, ruleServer } of cases) {
    const engine = cpu(engineAlone);
    const server = cpu(ruleServer);
    if (engine === undefined || server === undefined) continue;
    console.log(
      `  ${name}: the target (${Math.round(target * 100)}%) allows ${(baseline / target).toFixed(1)} in all; the engine and its JSON take ${(engine - floor).toFixed(1)} beyond the floor, rule-server's own path ${(server - engine).toFixed(1)} beyond the engine alone, ${server.toFixed(1)} in all.`,
    );
  }
}

export async function benchHttp(): Promise<void> {
  // This process drains rule-server's log pipe (a reader every server in production has too):
  // it runs on the load generator's core, so that it never takes the server's.
  if (PINNING) Bun.spawnSync(["taskset", "-a", "-p", "-c", PINNING.load, String(process.pid)], { stdout: "ignore" });
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-bench-"));
  try {
    const shopRules = shopRulesDirectory(scratch);
    const example = postScript(scratch, "example", EXAMPLE_REQUEST);
    const shop = postScript(scratch, "shop", SHOP_REQUEST);
    const shopBatch = postScript(scratch, "shop-batch", batchOf(SHOP_REQUEST));
    const rulesDir = join(ROOT, "rules");
    const rows = await measureInRounds([
      { name: BASELINE, start: () => startBareServer("fixed"), path: "/", script: example },
      { name: FLOOR, start: () => startBareServer("floor"), path: "/", script: example },
      {
        name: SHOP_ENGINE,
        start: () => startEngineOnlyServer(shopRules),
        path: "/evaluations",
        script: shop,
        probe: SHOP_REQUEST,
      },
      {
        name: SHOP_SERVER,
        start: () => startRuleServer(shopRules, 0),
        path: "/evaluations",
        script: shop,
        probe: SHOP_REQUEST,
      },
      {
        name: EXAMPLE_ENGINE,
        start: () => startEngineOnlyServer(rulesDir),
        path: "/evaluations",
        script: example,
        probe: EXAMPLE_REQUEST,
      },
      {
        name: EXAMPLE_SERVER,
        start: () => startRuleServer(rulesDir, 0),
        path: "/evaluations",
        script: example,
        probe: EXAMPLE_REQUEST,
      },
      {
        name: EXAMPLE_UNCHECKED,
        start: () => startRuleServer(rulesDir, 0, undefined, { RULE_SERVER_SCHEMA_ENFORCEMENT: "off" }),
        path: "/evaluations",
        script: example,
        probe: EXAMPLE_REQUEST,
      },
      {
        name: "rule-server, rules/ example, 1 worker",
        start: () => startRuleServer(rulesDir, 1),
        path: "/evaluations",
        script: example,
        probe: EXAMPLE_REQUEST,
      },
      {
        name: "rule-server, rules/ example, 2 workers",
        start: () => startRuleServer(rulesDir, 2),
        path: "/evaluations",
        script: example,
        probe: EXAMPLE_REQUEST,
      },
      {
        name: SHOP_BATCH,
        start: () => startRuleServer(shopRules, 0),
        path: "/evaluations/batch",
        script: shopBatch,
        probe: batchOf(SHOP_REQUEST),
        connections: BATCH_CONNECTIONS,
        items: BATCH_ITEMS,
      },
    ]);
    printRows(rows.filter((row) => row.contender.items === undefined));
    printBreakdown(rows, [
      { name: "shop", target: 0.55, engineAlone: SHOP_ENGINE, ruleServer: SHOP_SERVER },
      { name: "rules/ example", target: 0.35, engineAlone: EXAMPLE_ENGINE, ruleServer: EXAMPLE_SERVER },
    ]);
    printBatchRows(
      rows
        .filter((row) => row.name === SHOP_SERVER || row.name === SHOP_BATCH)
        .map((row) => ({
          name: row.name,
          runs: row.runs,
          items: row.contender.items ?? 1,
          connections: row.contender.connections ?? 64,
        })),
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchHttp();
