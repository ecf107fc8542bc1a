import { GaugeFamily } from "./gauge-family.ts";

/**
 * The process metrics every Prometheus client library exports, with their usual names.
 * `otherResidentBytes`: the memory of the serving processes a supervisor adds to its own (RULE_SERVER_PROCESSES).
 */
export function processMetrics(otherResidentBytes: () => number = () => 0): GaugeFamily[] {
  // performance.timeOrigin is when this process started, in milliseconds since the epoch.
  const startSeconds = Math.round(performance.timeOrigin) / 1000;
  return [
    new GaugeFamily(
      "process_resident_memory_bytes",
      "Resident memory size in bytes.",
      () => process.memoryUsage.rss() + otherResidentBytes(),
    ),
    new GaugeFamily(
      "process_cpu_seconds_total",
      "Total user and system CPU time spent in seconds.",
      () => {
        const usage = process.cpuUsage();
        return (usage.user + usage.system) / 1e6;
      },
      {},
      "counter",
    ),
    new GaugeFamily(
      "process_start_time_seconds",
      "Start time of the process since the Unix epoch in seconds.",
      () => startSeconds,
    ),
  ];
}
