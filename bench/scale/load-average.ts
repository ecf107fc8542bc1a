/**
 * The machine's 1-minute load average (from /proc/loadavg; undefined elsewhere): on a shared
 * machine, what else ran beside the bench, which steal alone does not show.
 */
import { existsSync, readFileSync } from "node:fs";

export function loadAverage(): number | undefined {
  if (!existsSync("/proc/loadavg")) return undefined;
  return Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
}
