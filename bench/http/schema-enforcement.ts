/**
 * What schema enforcement `warn` (the default) costs a single request over HTTP: rule-server with
 * no workers, one with `warn` and one with `off`, driven by wrk as throughput.ts drives it, on
 * two requests: the README's first (the rules/ example, whose Transfer schema is a `$ref` into
 * payments.openapi.yaml) and the shop ruleset's. Each round starts a fresh pair and drives it in
 * alternating bursts (alternating-pair.ts: whole runs one after the other varied by 10%, more
 * than the 5% to resolve); a round's ratio is that of its bursts pooled, and each figure is the
 * median over the rounds. Target: warn at most 1.05x the time of off, on both. Prints figures;
 * asserts nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../measure.ts";
import { startRuleServer } from "./server-processes.ts";
import { BURST_SECONDS, BURSTS, measureAlternatingPair, pooledFigures } from "./alternating-pair.ts";
import { WARMUP, type Contender } from "./contender.ts";
import { EXAMPLE_REQUEST, postScript, SHOP_REQUEST } from "./throughput.ts";
import { printEnforcementCost } from "./enforcement-cost.ts";
import { shopRulesDirectory } from "./shop-rules.ts";
import { PINNING, type WrkFigures } from "./wrk.ts";

const RULES = join(import.meta.dir, "..", "..", "rules");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "10");
const ENFORCEMENTS = ["warn", "off"] as const;

/** A request measured under both enforcements. */
interface Subject {
  readonly name: string;
  readonly rulesDir: string;
  readonly request: object;
  readonly script: string;
}

function contender(subject: Subject, enforcement: string): Contender {
  return {
    name: `${subject.name}, ${enforcement}`,
    start: () => startRuleServer(subject.rulesDir, 0, undefined, { RULE_SERVER_SCHEMA_ENFORCEMENT: enforcement }),
    path: "/evaluations",
    script: subject.script,
    probe: subject.request,
    // The requests fit their schemas: a warning would mean the two servers answer differently.
    checkProbe: (body) => {
      if ((body as { warnings?: unknown }).warnings !== undefined)
        throw new Error(`${subject.name}, ${enforcement}: answered with warnings: ${JSON.stringify(body)}`);
    },
  };
}

export async function benchSchemaEnforcementHttp(): Promise<void> {
  if (PINNING) Bun.spawnSync(["taskset", "-a", "-p", "-c", PINNING.load, String(process.pid)], { stdout: "ignore" });
  const scratch = mkdtempSync(join(tmpdir(), "rule-server-bench-"));
  try {
    const subjects: Subject[] = [
      {
        name: "rules/ example (the README's first request)",
        rulesDir: RULES,
        request: EXAMPLE_REQUEST,
        script: postScript(scratch, "example", EXAMPLE_REQUEST),
      },
      {
        name: "shop ruleset",
        rulesDir: shopRulesDirectory(scratch),
        request: SHOP_REQUEST,
        script: postScript(scratch, "shop", SHOP_REQUEST),
      },
    ];
    const runs = subjects.map(() => ({ warn: [] as WrkFigures[], off: [] as WrkFigures[] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, subject] of subjects.entries()) {
        const [first, second] = round % 2 === 0 ? ENFORCEMENTS : [...ENFORCEMENTS].reverse();
        const pair = await measureAlternatingPair(contender(subject, first!), contender(subject, second!));
        runs[index]![first!].push(pooledFigures(pair.first));
        runs[index]![second!].push(pooledFigures(pair.second));
      }
    }
    console.log(
      `\nSchema enforcement over HTTP, 0 workers, wrk -t1 -c64, ${ROUNDS} rounds of a fresh pair warmed ${WARMUP} s then ${BURSTS} alternating ${BURST_SECONDS} s bursts each, ${PINNING ? `server on core ${PINNING.server}, wrk on core ${PINNING.load}` : "not pinned (one core)"}`,
    );
    for (const [index, subject] of subjects.entries()) {
      console.log(`  ${subject.name}`);
      for (const enforcement of ENFORCEMENTS) {
        const figures = runs[index]![enforcement];
        const rates = figures.map((run) => Math.round(run.requestsPerSecond));
        const micros = figures.map((run) => run.processMicros);
        const cpu = micros.some((value) => value === undefined)
          ? ""
          : `, ${median(micros as number[]).toFixed(1)} CPU µs per request`;
        console.log(
          `    ${enforcement.padEnd(4)} ${median(rates).toLocaleString("en-US").padStart(9)} req/s (rounds: ${rates.join(", ")})${cpu}`,
        );
      }
    }
    for (const [index, subject] of subjects.entries())
      printEnforcementCost(subject.name, runs[index]!.warn, runs[index]!.off);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await benchSchemaEnforcementHttp();
