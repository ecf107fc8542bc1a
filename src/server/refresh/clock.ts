/**
 * The time a refresh schedule and a drain read: the system's in a server, a test's own in tests
 * (so that they advance it rather than wait).
 */
export interface Clock {
  now(): Date;
  /**
   * Calls `then` after `ms` milliseconds; the function returned cancels it. With `keepAlive: false`
   * the timer alone does not keep the process running (a refresh schedule's never does).
   */
  after(ms: number, then: () => void, options?: { readonly keepAlive?: boolean }): () => void;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => new Date(),
  after(ms, then, options) {
    const timer = setTimeout(then, ms);
    if (options?.keepAlive === false) timer.unref?.();
    return () => clearTimeout(timer);
  },
};
