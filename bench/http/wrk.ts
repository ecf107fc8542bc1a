/**
 * One wrk run against a server process, and the CPU time that process spent on it (from /proc on
 * Linux). With two or more cores, wrk runs pinned to a core of its own (`taskset`), one thread,
 * with 64 connections unless told otherwise.
 */
import { existsSync, readFileSync } from "node:fs";

export interface WrkFigures {
  readonly requestsPerSecond: number;
  /** p99 latency in milliseconds. */
  readonly p99Ms: number;
  readonly non2xx: number;
  /** CPU microseconds per request: the whole process, and its main thread alone (Linux only). */
  readonly processMicros?: number;
  readonly eventLoopMicros?: number;
  /**
   * The share of the server core's time the hypervisor gave to other guests during the run (steal,
   * Linux only). On a shared virtual machine this is why the same run varies from one minute to
   * the next; a figure measured with a high share is worth less.
   */
  readonly stealShare?: number;
}

/** The cores the server and the load generator run on, when the machine has two or more. */
export const PINNING = navigator.hardwareConcurrency >= 2 ? { server: "0", load: "1" } : undefined;

export function pinned(core: string | undefined, command: readonly string[]): string[] {
  return core === undefined ? [...command] : ["taskset", "-c", core, ...command];
}

/** CPU seconds used so far by a process and by its main thread, from /proc (undefined elsewhere). */
export function cpuSeconds(pid: number): { process: number; mainThread: number } | undefined {
  const read = (path: string): number | undefined => {
    if (!existsSync(path)) return undefined;
    // The fields after the command name (which may hold spaces) start at ") ".
    const fields = readFileSync(path, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  const process = read(`/proc/${pid}/stat`);
  const mainThread = read(`/proc/${pid}/task/${pid}/stat`);
  return process === undefined || mainThread === undefined ? undefined : { process, mainThread };
}

/** Jiffies a core has been stolen and in all, from /proc/stat (undefined elsewhere). */
function coreTimes(core: string | undefined): { steal: number; total: number } | undefined {
  if (core === undefined || !existsSync("/proc/stat")) return undefined;
  const line = readFileSync("/proc/stat", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`cpu${core} `));
  if (!line) return undefined;
  // user nice system idle iowait irq softirq steal: guest time is already inside user.
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  return { steal: fields[7] ?? 0, total: fields.reduce((sum, value) => sum + value, 0) };
}

function milliseconds(text: string | undefined): number {
  const match = /^([0-9.]+)(us|ms|s)$/.exec(text ?? "");
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value;
}

export async function wrk(
  url: string,
  script: string,
  serverPid: number,
  seconds: string,
  connections = 64,
): Promise<WrkFigures> {
  const before = cpuSeconds(serverPid);
  const coreBefore = coreTimes(PINNING?.server);
  const run = Bun.spawn(
    pinned(PINNING?.load, ["wrk", "-t1", `-c${connections}`, `-d${seconds}s`, "--latency", "-s", script, url]),
    { stdout: "pipe", stderr: "pipe" },
  );
  const output = await new Response(run.stdout).text();
  if ((await run.exited) !== 0) throw new Error(`wrk failed: ${await new Response(run.stderr).text()}`);
  const after = cpuSeconds(serverPid);
  const coreAfter = coreTimes(PINNING?.server);
  const stealShare =
    coreBefore && coreAfter && coreAfter.total > coreBefore.total
      ? (coreAfter.steal - coreBefore.steal) / (coreAfter.total - coreBefore.total)
      : undefined;
  const figures = readWrkOutput(output);
  const cpu =
    before && after && figures.requests > 0
      ? {
          processMicros: ((after.process - before.process) / figures.requests) * 1e6,
          eventLoopMicros: ((after.mainThread - before.mainThread) / figures.requests) * 1e6,
        }
      : {};
  return {
    requestsPerSecond: figures.requestsPerSecond,
    p99Ms: figures.p99Ms,
    non2xx: figures.non2xx,
    ...cpu,
    ...(stealShare === undefined ? {} : { stealShare }),
  };
}

/** What `wrk --latency` prints: requests in all, per second, p99 in milliseconds, answers that were not 2xx or 3xx. */
export function readWrkOutput(output: string): {
  requests: number;
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
} {
  return {
    requests: Number(/(\d+) requests in/.exec(output)?.[1] ?? 0),
    requestsPerSecond: Number(/Requests\/sec:\s+([0-9.]+)/.exec(output)?.[1] ?? 0),
    // Anchored to the distribution's line: the thread stats line may end in a share such as "87.99%".
    p99Ms: milliseconds(/^\s*99%\s+(\S+)/m.exec(output)?.[1]),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0),
  };
}
