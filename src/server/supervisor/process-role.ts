import type { ServerMetrics } from "../metrics/server-metrics.ts";
import type { LastReload } from "../snapshot/last-reload.ts";
import type { RulesSnapshot } from "../snapshot/rules-snapshot.ts";

/**
 * What a RuleServer does as one process of several (RULE_SERVER_PROCESSES above 1): the supervisor
 * loads and reloads the rules but does not listen; each serving process listens with rules it is
 * given and says nothing of them. Either counts into metrics made outside, which the supervisor sums.
 */
export interface ProcessRole {
  readonly metrics: ServerMetrics;
  readonly supervisor?: Supervision;
  readonly serving?: { readonly rules: RulesSnapshot };
}

/** The serving processes, as the supervisor's RuleServer sees them (serving-processes.ts). */
export interface Supervision {
  readonly processes: number;
  /** RULE_SERVER_WORKERS of each serving process. */
  readonly workers: number;
  /** Starts every serving process with these rules; resolves with the port they share once all listen. */
  start(snapshot: RulesSnapshot): Promise<number>;
  /**
   * A reload's outcome for every serving process: with `next`, resolves once each has those rules
   * (or has stopped), and rejects only when they cannot be sent, before any process has them;
   * without, a refusal, which changes nothing but `lastReload`.
   */
  share(lastReload: LastReload, next?: RulesSnapshot): Promise<void>;
}
