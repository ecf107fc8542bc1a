import { GaugeFamily } from "./gauge-family.ts";

/** The process metrics every Prometheus client library exports, with their usual names. */
export function processMetrics(): GaugeFamily[] {
  // performance.timeOrigin is when this process started, in milliseconds since the epoch.
  const startSeconds = Math.round(performance.timeOrigin) / 1000;
  return [
    new GaugeFamily("process_resident_memory_bytes", "Resident memory size in bytes.", () => process.memoryUsage.rss()),
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
    new GaugeFamily("process_start_time_seconds", "Start time of the process since the Unix epoch in seconds.", () => startSeconds),
  ];
}
