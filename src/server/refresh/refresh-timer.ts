import { type Clock, SYSTEM_CLOCK } from "./clock.ts";

/**
 * The timers of a scheduled refresh (SERVER.md, "Scheduled refresh"): they never keep the process
 * alive, and stop when the drain starts. `nextDelay` says how long until the next check: a fixed
 * interval, or the time until a cron schedule's next fire time.
 */
export class RefreshTimer {
  private cancel: (() => void) | undefined;
  private stopped = false;

  constructor(
    private readonly nextDelay: () => number | undefined,
    private readonly onTick: () => void,
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  start(): void {
    this.stopped = false;
    this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.cancel?.();
    this.cancel = undefined;
  }

  private arm(): void {
    if (this.stopped) return;
    const delay = this.nextDelay();
    if (delay === undefined) return;
    // setTimeout holds at most about 24.8 days; a longer wait is taken in steps.
    const step = Math.min(Math.max(delay, 0), 2 ** 31 - 1);
    this.cancel = this.clock.after(
      step,
      () => {
        if (step === delay) this.onTick();
        this.arm();
      },
      { keepAlive: false },
    );
  }
}
