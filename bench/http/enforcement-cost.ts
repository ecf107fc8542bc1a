/** The figure of schema enforcement's cost over HTTP, printed by throughput.ts and schema-enforcement.ts alike. */
import { median } from "../measure.ts";
import type { WrkFigures } from "./wrk.ts";

/** What `warn` may cost over `off` per request (issue: at most 5% more time). */
export const ENFORCEMENT_TARGET = 1.05;

/** The ratio of warn's time per request to off's, and of the server's CPU per request, from runs made in the same rounds. */
export function printEnforcementCost(subject: string, warn: readonly WrkFigures[], off: readonly WrkFigures[]): void {
  const time = median(off.map((run, round) => run.requestsPerSecond / warn[round]!.requestsPerSecond));
  const cpu =
    warn.every((run) => run.processMicros !== undefined) && off.every((run) => run.processMicros !== undefined)
      ? median(warn.map((run, round) => run.processMicros! / off[round]!.processMicros!))
      : undefined;
  console.log(
    `Schema enforcement warn (the default) against off, ${subject}: ${time.toFixed(3)}x the time per request (median of the rounds' ratios; target at most ${ENFORCEMENT_TARGET.toFixed(2)}x)${cpu === undefined ? "" : `, ${cpu.toFixed(3)}x the server's CPU per request`}.`,
  );
}
