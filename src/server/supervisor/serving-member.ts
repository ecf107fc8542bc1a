import type { Subprocess } from "bun";
import type { MetricsState } from "../metrics/server-metrics.ts";

/** A serving process as the supervisor keeps it: the child, where it stands, and what waits on it. */
export interface Member {
  readonly child: Subprocess<"ignore", "pipe", "inherit">;
  readonly spawnedAt: number;
  /** Sent `start`, after it said hello. */
  started: boolean;
  listening: boolean;
  /** The generation of the rules it was started with, then of the newest it has loaded. */
  startGeneration: number;
  loadedGeneration: number;
  /** Its counts at its last report (a scrape), kept when it stops. */
  state: MetricsState | undefined;
  /** Scrapes waiting for its counts. */
  readonly gathers: Map<number, () => void>;
  readonly listened: Promise<number>;
  readonly resolveListened: (port: number) => void;
  readonly rejectListened: (error: Error) => void;
  /** Its log lines, passed on until it closes its output. */
  readonly relayed: Promise<void>;
}
