/**
 * When a serving process that stopped is started again (RULE_SERVER_PROCESSES above 1). One that
 * stops within QUICK_STOP_MS of its start counts as a quick stop: each quick stop in a row doubles
 * the wait before the next start, from FIRST_DELAY_MS up to MAX_DELAY_MS, and MAX_QUICK_STOPS in a
 * row mean the processes cannot run here (a bad setting, a port taken, no memory): the supervisor
 * gives up rather than restart forever. A process that ran longer resets the count.
 */
export const FIRST_DELAY_MS = 100;
export const MAX_DELAY_MS = 5000;
export const QUICK_STOP_MS = 10_000;
export const MAX_QUICK_STOPS = 5;

export type RestartDecision =
  | { readonly restart: true; readonly delayMs: number }
  | { readonly restart: false; readonly quickStops: number };

export class RestartBackoff {
  private quickStops = 0;

  /** A serving process stopped after running `ranMs` (from its start; Infinity when unknown). */
  stopped(ranMs: number): RestartDecision {
    if (ranMs >= QUICK_STOP_MS) this.quickStops = 0;
    const delayMs = Math.min(FIRST_DELAY_MS * 2 ** this.quickStops, MAX_DELAY_MS);
    if (ranMs < QUICK_STOP_MS) this.quickStops++;
    if (this.quickStops >= MAX_QUICK_STOPS) return { restart: false, quickStops: this.quickStops };
    return { restart: true, delayMs };
  }
}
