import { Logger, type LogSink } from "../logging/logger.ts";
import { writeToStandardOutput } from "../../standard-output/standard-output.ts";
import { availableCpus, type AvailableCpus } from "./available-cpus.ts";
import { withPid } from "./pid-log-sink.ts";
import type { ProcessesSetting } from "./processes-setting.ts";

/**
 * How many processes serve, from RULE_SERVER_PROCESSES: the number given, or for `auto` the CPUs
 * this process may use (on Linux; elsewhere processes cannot share a port, so 1); and the logger of
 * the started process, whose lines carry `pid` when there are several. `auto` logs what it found,
 * so that a surprising count can be traced to an affinity or a CPU limit.
 */
export function resolveProcesses(
  setting: ProcessesSetting,
  platform: NodeJS.Platform = process.platform,
  cpus: () => AvailableCpus = availableCpus,
  sink: LogSink = writeToStandardOutput,
): { readonly count: number; readonly logger: Logger } {
  const loggerFor = (count: number): Logger => new Logger(count > 1 ? withPid(sink) : sink);
  if (setting.kind === "count") return { count: setting.count, logger: loggerFor(setting.count) };
  if (platform !== "linux") {
    const logger = loggerFor(1);
    logger.info("RULE_SERVER_PROCESSES=auto: 1 process, since only Linux lets processes share a port", {
      processes: 1,
    });
    return { count: 1, logger };
  }
  const found = cpus();
  const logger = loggerFor(found.cpus);
  logger.info(`RULE_SERVER_PROCESSES=auto: ${found.cpus} ${found.cpus === 1 ? "process" : "processes"}`, {
    processes: found.cpus,
    cpuAffinity: found.affinity,
    cpuQuota: found.quota ?? null,
  });
  return { count: found.cpus, logger };
}
