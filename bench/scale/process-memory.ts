/** A process's memory as Linux reports it in /proc/<pid>/status, in MiB. */
import { readFileSync } from "node:fs";

export interface ProcessMemory {
  /** VmRSS: resident now. */
  readonly residentMiB: number;
  /** VmHWM: the most it has been resident since it started. */
  readonly peakMiB: number;
}

export function processMemory(pid: number): ProcessMemory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kibibytes = (field: string): number =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { residentMiB: kibibytes("VmRSS") / 1024, peakMiB: kibibytes("VmHWM") / 1024 };
}
