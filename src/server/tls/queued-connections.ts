import { readFileSync } from "node:fs";

/**
 * Whether the kernel moves the connections queued on a listener that closes to another listener of
 * the port (Linux net.ipv4.tcp_migrate_req, 5.14 and later), instead of resetting them: what a
 * certificate rotation costs clients connecting at that moment. Undefined where it cannot be told.
 */
export function kernelMovesQueuedConnections(): boolean | undefined {
  try {
    return readFileSync("/proc/sys/net/ipv4/tcp_migrate_req", "utf8").trim() === "1";
  } catch {
    return undefined;
  }
}
