/**
 * What schema enforcement `warn` (the default) costs a single request over HTTP: rule-server with
 * no workers, one with `warn` and one with `off`, driven by wrk as throughput.ts drives it, on
 * two requests: the README's first (the rules/ example, whose Transfer schema is a `$ref` into
 * payments.openapi.yaml) and the shop ruleset's. Each round starts a fresh pair and drives both
 * side by side (side-by-side-pair.ts: measured one after the other, two identical servers differed
 * by up to 6% over ten rounds, more than the 5% to resolve); a round's ratio is that of its bursts
 * pooled, and each figure is the median over the rounds. A control pair, off against off on the
 * example, shows what the measurement itself reads as a difference. Target: warn at most 1.05x
 * off, on both. Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median } from "../measure.ts";
import { startRuleServer } from "./server-processes.ts";
import { BURST_SECONDS, BURSTS, measureSideBySide, pooledFigures, SIDE_BY_SIDE_WARMUP } from "./side-by-side-pair.ts";
import type { Contender } from "./contender.ts";
import { EXAMPLE_REQUEST, postScript, SHOP_REQUEST } from "./throughput.ts";
import { shopRulesDirectory } from "./shop-rules.ts";
import { PINNING, type WrkFigures } from "./wrk.ts";

const RULES = join(import.meta.dir, "..", "..", "rules");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? "6");
/** The pair of each subject; the control's "warn" runs with enforcement off too. */
const ENFORCEMENTS = ["warn", "off"] as const;

/** A request measured under both enforcements. */
interface Subject {
  readonly name: string;
  readonly rulesDir: string;
  readonly request: object;
  readonly script: string;
  /** A control: both servers of the pair run with enforcement off. */
  readonly control?: boolean;
}

function contender(subject: Subject, enforcement: "warn" | "off"): Contender {
  const setting = subject.control ? "off" : enforcement;
  return {
    name: `${subject.name}, ${enforcement}`,
    start: () => startRuleServer(subject.rulesDir, 0, undefined, { RULE_SERVER_SCHEMA_ENFORCEMENT: setting }),
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
      {
        name: "control: rules/ example, off against off",
        rulesDir: RULES,
        request: EXAMPLE_REQUEST,
        script: postScript(scratch, "example-control", EXAMPLE_REQUEST),
        control: true,
      },
    ];
    const runs = subjects.map(() => ({ warn: [] as WrkFigures[], off: [] as WrkFigures[] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, subject] of subjects.entries()) {
        const [first, second] = round % 2 === 0 ? ENFORCEMENTS : [...ENFORCEMENTS].reverse();
        const pair = await measureSideBySide(contender(subject, first!), contender(subject, second!));
        runs[index]![first!].push(pooledFigures(pair.first));
        runs[index]![second!].push(pooledFigures(pair.second));
      }
    }
    console.log(
      `\nSchema enforcement over HTTP, 0 workers, wrk -t1 -c64 per server, ${ROUNDS} rounds of a fresh pair side by side, warmed ${SIDE_BY_SIDE_WARMUP} s then ${BURSTS} bursts of ${BURST_SECONDS} s, ${PINNING ? `both servers on core ${PINNING.server}, both wrk on core ${PINNING.load}` : "not pinned (one core)"}`,
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
        const label = subject.control ? (enforcement === "warn" ? "off" : "off'") : enforcement;
        console.log(
          `    ${label.padEnd(4)} ${median(rates).toLocaleString("en-US").padStart(9)} req/s (rounds: ${rates.join(", ")})${cpu}`,
        );
      }
    }
    for (const [index, subject] of subjects.entries())
      if (subject.control) printControl(subject.name, runs[index]!.warn, runs[index]!.off);
      else printEnforcementCost(subject.name, runs[index]!.warn, runs[index]!.off);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** What `warn` may cost over `off` per request (issue: at most 5% more time). */
const ENFORCEMENT_TARGET = 1.05;

/**
 * The medians over the rounds of `one`'s time per request against `other`'s, and of its server's
 * CPU per request (undefined where /proc did not give it), from runs made in the same rounds.
 */
function pairRatios(one: readonly WrkFigures[], other: readonly WrkFigures[]): { time: number; cpu?: number } {
  const time = median(other.map((run, round) => run.requestsPerSecond / one[round]!.requestsPerSecond));
  if (one.some((run) => run.processMicros === undefined) || other.some((run) => run.processMicros === undefined))
    return { time };
  return { time, cpu: median(one.map((run, round) => run.processMicros! / other[round]!.processMicros!)) };
}

const cpuText = (cpu: number | undefined): string =>
  cpu === undefined ? "" : `, ${cpu.toFixed(3)}x the server's CPU per request`;

/** What warn costs against off. */
function printEnforcementCost(subject: string, warn: readonly WrkFigures[], off: readonly WrkFigures[]): void {
  const { time, cpu } = pairRatios(warn, off);
  console.log(
    `Schema enforcement warn (the default) against off, ${subject}: ${time.toFixed(3)}x the time per request (median of the rounds' ratios; target at most ${ENFORCEMENT_TARGET.toFixed(2)}x)${cpuText(cpu)}.`,
  );
}

/** The control's ratio: the difference this measurement reads between two servers that are the same. */
function printControl(name: string, one: readonly WrkFigures[], other: readonly WrkFigures[]): void {
  const { time, cpu } = pairRatios(one, other);
  console.log(
    `${name}: ${time.toFixed(3)}x the time per request${cpuText(cpu)} (what the measurement reads where there is no difference).`,
  );
}

if (import.meta.main) await benchSchemaEnforcementHttp();
