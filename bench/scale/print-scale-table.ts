/** The scale bench's figures as two markdown tables: the costs of each size, then their ratios. */
import { median } from "../measure.ts";
import { PINNING } from "../http/wrk.ts";
import { SECONDS, WARMUP } from "../http/contender.ts";
import { SETTLE_SECONDS, type SizeFigures } from "./measure-size.ts";
import { ROUNDS } from "./throughput-against-example.ts";

const MIB = 1024 * 1024;
const whole = (value: number): string => Math.round(value).toLocaleString("en-US");
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const ratio = (value: number): string => `${value.toFixed(2)}x`;
const row = (cells: readonly string[]): string => `| ${cells.join(" | ")} |`;

/** How the figures were taken: from source, pinned or not, and how loaded the machine was. */
export function scaleConditions(loads: { readonly start?: number; readonly end?: number }): string {
  return `rule-server from source, ${PINNING ? `pinned to core ${PINNING.server}, wrk on core ${PINNING.load}` : "not pinned (one core)"}; 1-minute load average of the machine ${loads.start?.toFixed(1) ?? "-"} at the start, ${loads.end?.toFixed(1) ?? "-"} at the end`;
}

/** `loads`: the machine's 1-minute load average when the bench started and when it ended. */
export function printScaleTable(
  sizes: readonly SizeFigures[],
  loads: { readonly start?: number; readonly end?: number },
): void {
  console.log(
    `\nScale: ${scaleConditions(loads)}; RSS settled after ${SETTLE_SECONDS} s idle; req/s: wrk -t1 -c64 -d${SECONDS}s after ${WARMUP} s of warm-up, ${ROUNDS} rounds alternating with the example's server, median\n`,
  );
  console.log(
    row([
      "size",
      "rulesets",
      "rules",
      "bundles",
      "start-up",
      "RSS at ready",
      "RSS settled",
      "RSS peak",
      "SIGHUP reload, all",
      "reload, one file changed",
      "check",
      "req/s of one ruleset",
    ]),
  );
  console.log(row(Array(12).fill("---")));
  for (const figures of sizes) {
    const rates = figures.throughput.sized.map((run) => run.requestsPerSecond);
    const non2xx = figures.throughput.sized.reduce((sum, run) => sum + run.non2xx, 0);
    console.log(
      row([
        figures.size.name,
        whole(figures.directory.rulesets),
        whole(figures.directory.rules),
        `${(figures.directory.bundleBytes / MIB).toFixed(1)} MiB`,
        seconds(figures.startupMs),
        `${whole(figures.atReady.residentMiB)} MiB`,
        `${whole(figures.settled.residentMiB)} MiB`,
        `${whole(figures.settled.peakMiB)} MiB`,
        seconds(figures.reloadAllMs),
        seconds(figures.reloadOneMs),
        `${seconds(figures.check.ms)}${figures.check.passed ? "" : " (failed)"}`,
        `${whole(median(rates))}${non2xx > 0 ? ` (${non2xx} non-2xx!)` : ""}`,
      ]),
    );
  }
  printRatios(sizes);
  for (const figures of sizes) {
    console.log(`${figures.size.name}: ${figures.size.description}; check: ${figures.check.summary}`);
  }
}

function printRatios(sizes: readonly SizeFigures[]): void {
  const example = sizes.find((figures) => figures.size.name === "example");
  console.log(
    "\nRatios: RSS settled per bundle byte; the RSS a size adds to the example's per bundle byte it adds; req/s to the example server's in the same rounds (each round's ratio); p99 and the server core's steal, medians\n",
  );
  console.log(
    row(["size", "RSS settled / bundles", "extra RSS / extra bundles", "req/s ratio", "(rounds)", "p99 ms", "steal"]),
  );
  console.log(row(Array(7).fill("---")));
  for (const figures of sizes) {
    const settled = figures.settled.residentMiB * MIB;
    const extraBundles = example ? figures.directory.bundleBytes - example.directory.bundleBytes : 0;
    const extra =
      example && extraBundles > 0 ? ratio((settled - example.settled.residentMiB * MIB) / extraBundles) : "-";
    const steals = figures.throughput.sized.map((run) => run.stealShare);
    const steal = steals.some((value) => value === undefined)
      ? "-"
      : `${(median(steals as number[]) * 100).toFixed(0)}%`;
    console.log(
      row([
        figures.size.name,
        ratio(settled / figures.directory.bundleBytes),
        extra,
        ratio(figures.throughput.ratio),
        figures.throughput.ratios.map((value) => value.toFixed(2)).join(", "),
        median(figures.throughput.sized.map((run) => run.p99Ms)).toFixed(2),
        steal,
      ]),
    );
  }
}
